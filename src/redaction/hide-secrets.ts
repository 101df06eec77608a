import { redactForms } from './secret-encodings.js';
import { MIN_SECRET_LENGTH } from './secret-forms.js';
import { compileSecrets } from './secret-set.js';

/**
 * A function that takes `secrets` out of a text of a report, in every form the journal takes a
 * key out of what it records (as is, URL-, JSON- or XML-escaped, inside base64 as `id:key`,
 * `key:id` or alone, behind escapes): the journal's own mechanism (redaction/redact.ts), for texts
 * that are not journal entries (verify's and replay's reports). `minLength` as
 * {@link compileSecrets} takes it.
 */
export function secretHider(
  secrets: Iterable<string>,
  minLength = MIN_SECRET_LENGTH,
): (text: string) => string {
  const compiled = compileSecrets(secrets, minLength);
  return compiled ? (text) => redactForms(text, compiled.text, false) : (text) => text;
}
