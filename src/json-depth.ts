// Read by the journal, replay, verify, import and the seed reader before any JSON.parse: a text
// nested far deeper than anything they read costs tens of times its size to build, or overflows
// the stack of whatever walks it.

/**
 * True when `text`'s arrays and objects nest deeper than `limit` (brackets inside strings do not
 * count). One pass, no recursion; valid JSON or not.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c /* backslash */) index++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      depth++;
      if (depth > limit) return true;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) depth--;
  }
  return false;
}
