/**
 * Text for a terminal, from a service that may say anything: every control character but line
 * breaks and tabs (C0, DEL, C1: ESC starts the sequences that move the cursor, rewrite the title,
 * or hide what follows) is shown as its escape, `\u001b`, and never sent raw.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
