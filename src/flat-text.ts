/**
 * Where {@link flatText} stores the character it reads: a write the engine must make, so that the
 * read, which is what flattens, is never optimised away.
 */
const sink = new Float64Array(1);

/**
 * The same text, in one piece. V8 keeps a string built with `+` (a header block, a serializer's
 * output) as a tree of its pieces (a rope) until something reads it by index: writing it to a
 * socket copies it piece by piece every time, and a rope that is kept holds every piece, each an
 * object the garbage collector copies while young. Reading one character makes V8 flatten it in
 * place, once.
 */
export function flatText(text: string): string {
  sink[0] = text.charCodeAt(0);
  return text;
}
