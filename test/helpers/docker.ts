import { execFileSync } from 'node:child_process';
import { IMAGE_TAG } from './package.js';

/**
 * Why the container tests of `what` cannot run here, or undefined when they can: no Docker engine
 * answers, or the image is not built (.ci/run starts dockerd and runs `npm run image` first).
 * Outside CI the caller skips its tests, and this says so; under CI=true it throws, so that a
 * missing engine or image fails instead of passing silently.
 */
export function dockerProblem(what: string, image = IMAGE_TAG): string | undefined {
  const problem = engineOrImageProblem(image);
  if (problem && process.env.CI === 'true') throw new Error(`${what} cannot run: ${problem}`);
  if (problem) console.warn(`${what}: skipped, ${problem}`);
  return problem;
}

function engineOrImageProblem(image: string): string | undefined {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    return 'no Docker engine answers (`docker info` failed)';
  }
  try {
    execFileSync('docker', ['image', 'inspect', image], { stdio: 'ignore' });
  } catch {
    return `no image ${image}: build it with \`npm run image\``;
  }
  return undefined;
}
