import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which CI installs (.ci/run); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests of `file` run. Outside CI a missing Chromium skips them, saying so;
 * under CI=true they run anyway, so a missing browser fails instead of passing silently.
 */
export function chromiumAvailable(file: string): boolean {
  const available = existsSync(CHROMIUM) || process.env.CI === 'true';
  if (!available) console.warn(`${basename(file)}: skipped, no Chromium at ${CHROMIUM}`);
  return available;
}

/**
 * Headless Chromium with no traffic of its own: this machine's network is closed, and the
 * background services' connections would be refused, many at a time.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
