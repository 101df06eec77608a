// The recording proxy as `record` runs it: the built package, plain HTTP, one process, in front
// of the upstream given as the first argument, writing the HAR given as the second.
import { startRecorder } from '../../dist/index.js';

const [upstream, out] = process.argv.slice(2);
const recorder = await startRecorder({ upstream, out, https: false });
process.send?.({ ready: recorder.url });
process.on('SIGTERM', () => recorder.close().then(() => process.exit(0)));
