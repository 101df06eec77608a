// `npm run image`: builds the container image from the Dockerfile.
//   NODE_IMAGE  the base image (default: the Dockerfile's, an official Node image)
//   IMAGE_TAG   the tag (default fake-marketing-server:<version>)
// This machine's npm registry and CA bundle (NODE_EXTRA_CA_CERTS), when set, go to the build stage
// through .image-build/ in the context, and are removed afterwards: they never reach the image.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const tag = process.env.IMAGE_TAG || `fake-marketing-server:${version}`;
const staging = new URL('../.image-build/', import.meta.url);

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
  if (process.env.NODE_IMAGE) args.push('--build-arg', `NODE_IMAGE=${process.env.NODE_IMAGE}`);
  execFileSync('docker', [...args, '.'], { cwd: root, stdio: 'inherit' });
} finally {
  rmSync(staging, { recursive: true, force: true });
}
const bytes = Number(
  execFileSync('docker', ['image', 'inspect', '--format', '{{.Size}}', tag], { encoding: 'utf8' }),
);
console.log(`Built ${tag}: ${(bytes / 2 ** 20).toFixed(0)} MiB`);
