/**
 * A reader of the CLI's output can go away before it stops: a pipe into `head`, a log collector
 * that exited. Node then reports each later write as an error on the stream, which nothing
 * handles, so the process would die before it writes the state file or the HAR's last exchanges.
 * The messages are lost either way; the session's work is not.
 */
export function outliveClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreWriteError);
}

function ignoreWriteError(): void {
  // Nothing reads the stream any more: there is nobody to tell.
}
