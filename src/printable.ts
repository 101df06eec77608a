/**
 * Characters a service may send that a terminal must not get raw: control characters but line
 * breaks and tabs (C0, DEL, C1: ESC starts the sequences that move the cursor, rewrite the title,
 * or hide what follows), and format characters (Unicode's Cf: the bidi controls U+202E, U+2066 to
 * U+2069, U+200E/F, U+061C reorder what follows, so a report could show text other than what came
 * back; zero-width ones hide inside a name), with the line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/**
 * Text for a terminal, from a service that may say anything: every character of {@link UNSAFE}
 * is shown as its escape, `\u001b` (`\u{e0001}` past U+FFFF), and never sent raw.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (character) => {
    const code = character.codePointAt(0) as number;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
