// Seeded mutations of real answers, shared by the parser fuzz test (short) and `npm run bench`
// (long): hostile lines, cut-offs, swaps, huge lines and answers blown up to the size limit.
// No vitest import: the bench runs it outside the test runner.

/** A small seeded PRNG (mulberry32) so every run mutates the same way. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines that mean something to one of the parsers, or to the path checks. */
export const HOSTILE = [
  '```', '````', '~~~', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '@@ ... @@', '--- a/x', '+++ b/x', '-', '+', '',
  'projectId: corpus', 'uuid: ../../../etc/passwd', '```ts // ../outside.txt', '```ts // /tmp/absolute.txt', '```sh // .git/hooks/pre-commit',
  '```ts // ..\\windows.txt', '```json // rename-file', '{"from": "a", "to": "../b"}', '```md // "a b/c.md" new-unified', '//TODO: delete this file',
  '\uFEFF', '\r', 'x'.repeat(5000), '// ... existing code ...', '```ts // src/link/../../up.ts',
  '*** Begin Patch', '*** End Patch', '*** Update File: ../escape.txt', '*** Add File: /etc/passwd', '*** Delete File: .git/config', '*** Move to: ../moved',
  '@@', '@@ def main():', '*** End of File', 'diff --git a/x b/x', 'new file mode 100644', 'deleted file mode 100644', 'rename from a', 'rename to ../b',
  '\\ No newline at end of file', '**src/app.ts**', '### ../up.md', 'File: .git/HEAD', '#!/usr/bin/env bash', '```bash', '```diff', '```src/x.ts',
];

/** One mutation round: drop, duplicate, insert hostile, cut off, change a character, climb out, swap, add CR. */
export function mutate(text: string, random: () => number): string {
  const lines = text.split('\n');
  const pick = (n: number): number => Math.floor(random() * n);
  const rounds = 1 + pick(4);
  for (let r = 0; r < rounds; r += 1) {
    const at = pick(lines.length + 1);
    switch (pick(9)) {
      case 0: lines.splice(at, 1); break;
      case 1: lines.splice(at, 0, lines[pick(lines.length)] ?? ''); break;
      case 2: lines.splice(at, 0, HOSTILE[pick(HOSTILE.length)]!); break;
      case 3: lines.length = Math.max(0, at); break;
      case 4: {
        const line = lines[at] ?? '';
        const i = pick(line.length + 1);
        lines[at] = line.slice(0, i) + String.fromCharCode(32 + pick(95)) + line.slice(i + 1);
        break;
      }
      case 5: lines[at] = (lines[at] ?? '').replace(/(\/\/ |\*\*\* (?:Add|Update|Delete) File: |^\+\+\+ b\/)(\S+)/, '$1../$2'); break;
      case 6: { const j = pick(lines.length); [lines[at], lines[j]] = [lines[j] ?? '', lines[at] ?? '']; break; }
      case 7: lines[at] = (lines[at] ?? '') + '\r'; break;
      default: lines.splice(at, 0, ...Array.from({ length: 1 + pick(6) }, () => lines[pick(lines.length)] ?? '')); break;
    }
  }
  return lines.join('\n');
}

/**
 * A heavy variant: a line made huge (up to `maxLine` characters), a run of one repeated line, or
 * the answer repeated until it nears `maxBytes`, the kind of input that once made matching slow.
 */
export function blowUp(text: string, random: () => number, limits: { maxBytes: number; maxLine: number }): string {
  const lines = text.split('\n');
  const pick = (n: number): number => Math.floor(random() * n);
  switch (pick(4)) {
    case 0: {
      const at = pick(lines.length);
      const line = lines[at] ?? '';
      lines[at] = line + 'x'.repeat(Math.max(0, limits.maxLine - line.length - pick(100)));
      return lines.join('\n');
    }
    case 1: {
      const at = pick(lines.length);
      const repeated = lines[pick(lines.length)] ?? '}';
      lines.splice(at, 0, ...Array.from({ length: 2000 + pick(20000) }, () => repeated));
      return lines.join('\n').slice(0, limits.maxBytes);
    }
    case 2: {
      const copies = Math.max(1, Math.floor(limits.maxBytes / Math.max(1, text.length + 1)) - 1);
      return Array.from({ length: Math.min(copies, 2000) }, () => text).join('\n');
    }
    default: {
      // Every line of the answer made long: a wide minified-looking answer.
      return lines.map((l) => (l.length > 0 ? l + ' '.repeat(pick(200)) + 'y'.repeat(pick(limits.maxLine / 8)) : l)).join('\n').slice(0, limits.maxBytes);
    }
  }
}
