// Syntax highlighting for diffs and code blocks with highlight.js (core plus the languages
// people paste most), so the bundle stays small and nothing is loaded at runtime (the
// window's CSP allows our own scripts only).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { DiffHunk } from './diff-rows';
import { hunkSides } from './diff-rows';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, makefile, markdown, php, python, ruby, rust, scss, sql, swift, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

const BY_EXTENSION: Readonly<Record<string, keyof typeof LANGUAGES>> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', jsonc: 'json',
  py: 'python', pyi: 'python',
  go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin', swift: 'swift',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', cs: 'csharp',
  rb: 'ruby', php: 'php', sql: 'sql',
  css: 'css', scss: 'scss', sass: 'scss', less: 'scss',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', vue: 'xml',
  md: 'markdown', markdown: 'markdown',
  yml: 'yaml', yaml: 'yaml', toml: 'ini', ini: 'ini', cfg: 'ini', conf: 'ini',
  sh: 'bash', bash: 'bash', zsh: 'bash',
  diff: 'diff', patch: 'diff',
};

const BY_NAME: Readonly<Record<string, keyof typeof LANGUAGES>> = { dockerfile: 'dockerfile', makefile: 'makefile', gnumakefile: 'makefile' };

/** The highlight.js language for a file path, or null when none fits (shown as plain text). */
export function languageForPath(filePath: string): string | null {
  const name = filePath.split('/').pop()?.toLowerCase() ?? '';
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1)] ?? null;
}

/** The highlight.js language for a fenced code block's info string (```ts), or null. */
export function languageForFence(info: string | undefined): string | null {
  if (!info) return null;
  const name = info.toLowerCase();
  // Our own names first, so ```ts and ```typescript both give "typescript".
  return BY_EXTENSION[name] ?? BY_NAME[name] ?? (hljs.getLanguage(name) ? name : null);
}

/** Escapes text for use as HTML (what highlight.js does for the text it does not colour). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

const TAG = /<span class="([^"]*)">|<\/span>/g;

/**
 * Splits highlight.js output into one HTML string per line. A token can span lines (a block
 * comment, a template string); its span is closed at each line end and reopened on the next
 * line, so every line is well-formed HTML on its own.
 */
export function splitHighlightedLines(html: string): string[] {
  const out: string[] = [];
  const open: string[] = [];
  let current = '';
  let last = 0;
  const addText = (text: string): void => {
    const pieces = text.split('\n');
    pieces.forEach((piece, i) => {
      if (i > 0) {
        out.push(current + '</span>'.repeat(open.length));
        current = open.map((cls) => `<span class="${cls}">`).join('');
      }
      current += piece;
    });
  };
  for (const match of html.matchAll(TAG)) {
    addText(html.slice(last, match.index));
    if (match[1] !== undefined) {
      open.push(match[1]);
      current += match[0];
    } else {
      open.pop();
      current += '</span>';
    }
    last = match.index + match[0].length;
  }
  addText(html.slice(last));
  out.push(current + '</span>'.repeat(open.length));
  return out;
}

/** Highlights consecutive lines of one language as a block; one HTML string per input line. */
export function highlightLines(lines: readonly string[], language: string | null): string[] {
  if (lines.length === 0) return [];
  if (!language || !hljs.getLanguage(language)) return lines.map(escapeHtml);
  try {
    const html = hljs.highlight(lines.join('\n'), { language, ignoreIllegals: true }).value;
    const split = splitHighlightedLines(html);
    // highlight.js never adds or drops newlines; if it ever did, plain text is still right.
    return split.length === lines.length ? split : lines.map(escapeHtml);
  } catch {
    return lines.map(escapeHtml);
  }
}

/**
 * HTML for every line of a hunk, in the hunk's order. Each side (old: context + deleted, new:
 * context + added) is highlighted as one block, so a comment opened on one line colours the next.
 */
export function highlightHunk(hunk: DiffHunk, language: string | null): string[] {
  const sides = hunkSides(hunk);
  const oldHtml = highlightLines(sides.old, language);
  const newHtml = highlightLines(sides.new, language);
  let o = 0;
  let n = 0;
  return hunk.lines.map((line) => {
    if (line.type === 'del') return oldHtml[o++] ?? escapeHtml(line.text);
    if (line.type === 'add') return newHtml[n++] ?? escapeHtml(line.text);
    o += 1;
    return newHtml[n++] ?? escapeHtml(line.text);
  });
}

/** Highlights a whole code block (Markdown fences); plain escaped text when the language is unknown. */
export function highlightCode(code: string, language: string | null): string {
  if (!language || !hljs.getLanguage(language)) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(code);
  }
}
