import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/engine/patch/summary.js';
import { parseUnifiedDiff } from '../../../src/renderer/lib/diff-rows.js';
import { escapeHtml, highlightCode, highlightHunk, highlightLines, languageForFence, languageForPath, splitHighlightedLines } from '../../../src/renderer/lib/highlight.js';

describe('highlighting', () => {
  it('picks the language from the file name', () => {
    expect(languageForPath('src/app.tsx')).toBe('typescript');
    expect(languageForPath('lib/x.py')).toBe('python');
    expect(languageForPath('deploy/app.yaml')).toBe('yaml');
    expect(languageForPath('Dockerfile')).toBe('dockerfile');
    expect(languageForPath('docs/Release Process.md')).toBe('markdown');
    expect(languageForPath('LICENSE')).toBeNull();
    expect(languageForPath('.gitignore')).toBeNull();
  });

  it('picks the language from a fence’s info string', () => {
    expect(languageForFence('ts')).toBe('typescript');
    expect(languageForFence('python')).toBe('python');
    expect(languageForFence('nonsense')).toBeNull();
    expect(languageForFence(undefined)).toBeNull();
  });

  it('splitHighlightedLines() closes a token at each line end and reopens it on the next', () => {
    const html = 'a <span class="hljs-comment">/* one\ntwo */</span> b\nc';
    expect(splitHighlightedLines(html)).toEqual(['a <span class="hljs-comment">/* one</span>', '<span class="hljs-comment">two */</span> b', 'c']);
    expect(splitHighlightedLines('<span class="x"><span class="y">p\nq</span></span>')).toEqual(['<span class="x"><span class="y">p</span></span>', '<span class="x"><span class="y">q</span></span>']);
  });

  it('highlights a block so a comment opened on one line colours the next', () => {
    const lines = highlightLines(['const a = 1; /* start', 'still comment */ const b = 2;'], 'typescript');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^<span class="hljs-comment">still comment \*\/<\/span>/);
    expect(lines[1]).toContain('hljs-keyword');
  });

  it('escapes text it does not colour, and everything for unknown languages', () => {
    expect(highlightLines(['<b>&"x"</b>'], null)).toEqual(['&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;']);
    expect(highlightCode('<script>alert(1)</script>', 'typescript')).not.toContain('<script>');
    expect(escapeHtml(`'`)).toBe('&#x27;');
  });

  it('highlightHunk() gives one HTML string per line of the hunk, deleted lines from the old side', () => {
    const [file] = parseUnifiedDiff(unifiedDiff('x.ts', 'const a = 1;\nlet b = "s";\n', 'const a = 2;\nlet b = "s";\n'));
    const hunk = file!.hunks[0]!;
    const html = highlightHunk(hunk, 'typescript');
    expect(html).toHaveLength(hunk.lines.length);
    expect(html[0]).toContain('<span class="hljs-number">1</span>');
    expect(html[1]).toContain('<span class="hljs-number">2</span>');
    expect(html[2]).toContain('<span class="hljs-string">&quot;s&quot;</span>');
  });
});
