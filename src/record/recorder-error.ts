/** Errors the caller must report as a usage problem (a bad upstream URL, an unreadable --out). */
export class RecorderOptionError extends Error {
  override name = 'RecorderOptionError';
}
