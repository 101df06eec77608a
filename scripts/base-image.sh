#!/usr/bin/env bash
# Makes a minimal Node base image from this machine's own Node and npm, for building the
# Dockerfile where no image registry is reachable (CI here). Users build on the official image.
#   scripts/base-image.sh [TAG]    default TAG: fake-marketing-server-base:local
set -euo pipefail
tag="${1:-fake-marketing-server-base:local}"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT

node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
copy_with_libraries() {
  local file="$1" target="$2"
  mkdir -p "$root$(dirname "$target")"
  cp -L "$file" "$root$target"
  for library in $(ldd "$file" | grep -o '/[^ ]*'); do
    mkdir -p "$root$(dirname "$library")"
    cp -Ln "$library" "$root$library"
  done
}
copy_with_libraries "$node_bin" /usr/local/bin/node
copy_with_libraries "$(readlink -f /bin/sh)" /bin/sh
copy_with_libraries "$(readlink -f /usr/bin/env)" /usr/bin/env
for tool in cat rm mkdir; do copy_with_libraries "$(command -v $tool)" "/bin/$tool"; done
# The rest of glibc that native npm packages (rollup, esbuild) load, as an official image has it.
for library in /lib/*-linux-gnu/{librt,libresolv,libutil,libnss_files,libnss_dns,libanl}.so.*; do
  [ -e "$library" ] || continue
  mkdir -p "$root$(dirname "$library")"
  cp -Ln "$library" "$root$library"
done
mkdir -p "$root/usr/local/lib/node_modules" "$root/etc/ssl/certs" "$root/tmp" "$root/home/node"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
chmod 1777 "$root/tmp"
# The official images' user: uid and gid 1000, named node.
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000:node:/home/node:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' > "$root/etc/group"
chown 1000:1000 "$root/home/node"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'CMD ["node"]' - "$tag" >/dev/null
echo "$tag"
