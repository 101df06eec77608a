import { resolve } from 'node:path';
import { type Recorder, RecorderOptionError, startRecorder } from '../record/recorder.js';
import { preflight } from '../verify/preflight.js';
import {
  keyHider,
  type VerifyOptions,
  type VerifyReport,
  verifyService,
} from '../verify/verify.js';
import { UsageError } from './args.js';

/**
 * `verify --har FILE`: verify's own traffic goes through the recording proxy (the same recorder
 * as `record`, on a free loopback port), so the HAR holds every request verify sent and every
 * answer, redacted. When the target cannot be judged at all (unreachable, untrusted, refused),
 * verify runs directly, so that it says why as it always does, and nothing is recorded.
 */
export async function verifyRecorded(
  options: VerifyOptions,
  har: string,
): Promise<{ report: VerifyReport; recorded: number | undefined }> {
  if ((await preflight(options)) !== undefined)
    return { report: await verifyService(options), recorded: undefined };
  let recorder: Recorder;
  try {
    recorder = await startRecorder({
      upstream: options.baseUrl,
      out: resolve(har),
      https: false,
      port: 0,
      secrets: [options.key],
      ...(options.ca ? { ca: options.ca } : {}),
    });
  } catch (error) {
    // The recorder's upstream is verify's --base-url, and its --out is --har: the messages name them.
    if (error instanceof RecorderOptionError) {
      const message = error.message
        .replaceAll('--upstream', '--base-url')
        .replaceAll('--out', '--har');
      throw new UsageError(message.includes('--har') ? message : `--har: ${message}`);
    }
    throw error;
  }
  let report: VerifyReport;
  try {
    const { ca: _ca, ...rest } = options;
    report = await verifyService({ ...rest, baseUrl: recorder.baseUrl });
  } finally {
    await recorder.close();
  }
  return {
    report: { ...report, baseUrl: keyHider(options.key)(options.baseUrl) },
    recorded: recorder.entries,
  };
}
