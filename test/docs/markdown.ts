import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every page a reader is sent to: the README, the changelog and docs/*.md, relative to ROOT. */
export function docFiles(): string[] {
  const docs = readdirSync(new URL('docs/', `file://${ROOT}`))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CHANGELOG.md', ...docs];
}

export function readDoc(file: string): string {
  return readFileSync(`${ROOT}${file}`, 'utf8');
}

/** A fenced code block and the `<!-- doc: kind rest -->` annotation on the line before it. */
export interface CodeBlock {
  readonly file: string;
  readonly line: number;
  readonly info: string;
  readonly code: string;
  readonly kind: string | undefined;
  readonly rest: string;
}

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```+)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== fence; i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a code block is never closed`);
    const note = /^<!-- doc: (\S+)\s*(.*?)\s*-->$/.exec(lines[start - 1] ?? '');
    blocks.push({
      file,
      line: start + 1,
      info: open[2]!.trim(),
      code: `${body.join('\n')}\n`,
      kind: note?.[1],
      rest: note?.[2] ?? '',
    });
  }
  return blocks;
}

/** Text outside fenced code blocks. */
function withoutFences(text: string): string {
  return text.replace(/^(```+)[^\n]*\n[\s\S]*?\n\1$/gm, '');
}

/** Text outside code blocks and inline code, where links live. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** Every Markdown link and image target of a text: `[text](target)` outside code. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/**
 * GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, spaces, `-`
 * and `_` stay), spaces to `-`; a repeated heading gets `-1`, `-2`, ... as GitHub numbers them.
 */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of withoutFences(text).matchAll(/^#{1,6} (.+?)\s*#*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}
