// `npm run image`: builds the container image from the Dockerfile.
//   NODE_IMAGE  the base image (default: the Dockerfile's, an official Node image; where no image
//               registry answers and it is not on this machine, a base made from this machine's
//               own Node by scripts/base-image.sh, fake-marketing-server-base:local)
//   IMAGE_TAG   the tag (default fake-marketing-server:<version>)
// This machine's npm registry and CA bundle (NODE_EXTRA_CA_CERTS), when set, go to the build stage
// through .image-build/ in the context, and are removed afterwards: they never reach the image.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const tag = process.env.IMAGE_TAG || `fake-marketing-server:${version}`;
const staging = new URL('../.image-build/', import.meta.url);
/** The Dockerfile's `ARG NODE_IMAGE` default. */
const OFFICIAL_BASE = /^ARG NODE_IMAGE=(\S+)$/m.exec(
  readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8'),
)[1];
const LOCAL_BASE = 'fake-marketing-server-base:local';

/** Stops with one line that says what to do, never a stack trace. */
function fail(message) {
  process.stderr.write(`npm run image: ${message}\n`);
  process.exit(1);
}

/** Runs docker quietly; true when it succeeded. */
const docker = (...args) => spawnSync('docker', args, { stdio: 'ignore' }).status === 0;

/**
 * The base image to build on: NODE_IMAGE when set; else the official one when it is here or a
 * registry gives it; else one made from this machine's Node (no registry reachable, as in CI).
 */
function baseImage() {
  if (process.env.NODE_IMAGE) return process.env.NODE_IMAGE;
  if (docker('image', 'inspect', OFFICIAL_BASE)) return OFFICIAL_BASE;
  process.stdout.write(`Pulling ${OFFICIAL_BASE}...\n`);
  if (docker('pull', OFFICIAL_BASE)) return OFFICIAL_BASE;
  process.stdout.write(
    `No image registry gave ${OFFICIAL_BASE}: building on ${LOCAL_BASE}, made from this machine's Node (scripts/base-image.sh).\n`,
  );
  const made = spawnSync('bash', ['scripts/base-image.sh', LOCAL_BASE], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (made.status !== 0) {
    fail(
      `could not make ${LOCAL_BASE}; run \`bash scripts/base-image.sh\` to see why, or set NODE_IMAGE to a Node 20+ image you have.`,
    );
  }
  return LOCAL_BASE;
}

if (!docker('info')) {
  fail(
    'no Docker engine answers (`docker info` failed); start one (e.g. `sudo dockerd`), then run it again.',
  );
}
const base = baseImage();
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging);
try {
  const registry = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  if (registry && registry !== 'https://registry.npmjs.org/') {
    writeFileSync(new URL('registry', staging), registry);
  }
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca && existsSync(ca)) copyFileSync(ca, new URL('ca.pem', staging));
  const args = ['build', '--network', 'host', '--tag', tag, '--build-arg', `VERSION=${version}`];
  args.push('--build-arg', `NODE_IMAGE=${base}`);
  const built = spawnSync('docker', [...args, '.'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) fail(`docker build failed (its output is above); base image ${base}.`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
const bytes = Number(
  execFileSync('docker', ['image', 'inspect', '--format', '{{.Size}}', tag], { encoding: 'utf8' }),
);
console.log(`Built ${tag}: ${(bytes / 2 ** 20).toFixed(0)} MiB`);
