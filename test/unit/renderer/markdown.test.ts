// Markdown rendering rules, checked on the HTML React renders (react-dom/server, no DOM needed).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fenceInfo, isExternalUrl, RenderedMarkdown, safeUrl } from '../../../src/renderer/lib/markdown.js';

const render = (text: string): string => renderToStaticMarkup(createElement(RenderedMarkdown, { text }));

describe('markdown rendering rules', () => {
  it('renders GitHub-flavoured tables, task lists, strikethrough and autolinks', () => {
    const html = render(['| phase | result |', '| --- | --- |', '| fast | passed |', '', '- [x] done', '- [ ] open', '', '~~old~~ see https://example.com'].join('\n'));
    expect(html).toContain('<table>');
    expect(html).toContain('<th>phase</th>');
    expect(html).toContain('<td>passed</td>');
    expect(html).toContain('<div class="md-table-wrap">');
    expect(html).toMatch(/<input type="checkbox" disabled="" checked=""\/>/);
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noreferrer noopener">https://example.com</a>');
  });

  it('highlights fenced code by its language and leaves inline code plain', () => {
    const html = render('Run `npm test`.\n\n```ts\nconst a: number = 1;\n```\n');
    expect(html).toContain('<code>npm test</code>');
    expect(html).toContain('<code class="hljs language-typescript"><span class="hljs-keyword">const</span>');
  });

  it('shows a fence without a language as escaped plain code', () => {
    const html = render('```\n<b>not bold</b>\n```\n');
    expect(html).toContain('<code class="hljs">&lt;b&gt;not bold&lt;/b&gt;</code>');
  });

  it('never renders raw HTML', () => {
    const html = render('Hello <script>alert(1)</script> <img src=x onerror=alert(1)> <b>bold</b>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('<b>');
  });

  it('drops links that could run code, keeps relative ones in the window', () => {
    const html = render('[x](javascript:alert(1)) [y](#/runs/abc) [z](mailto:a@b.c)');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<span class="md-dead-link">x</span>');
    expect(html).toContain('<a href="#/runs/abc">y</a>');
    expect(html).toContain('<a href="mailto:a@b.c" target="_blank" rel="noreferrer noopener">z</a>');
  });

  it('shows remote images as links (nothing is fetched), keeps inline data images', () => {
    const html = render('![diagram](https://example.com/d.png) ![dot](data:image/png;base64,iVBORw0KGgo=)');
    expect(html).not.toContain('<img src="https://');
    expect(html).toContain('<a href="https://example.com/d.png" target="_blank" rel="noreferrer noopener" class="md-image-link">🖼 diagram</a>');
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot"/>');
  });

  it('safeUrl() and isExternalUrl() say which URLs are safe and which leave the window', () => {
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl(' https://a.b/c ')).toBe('https://a.b/c');
    expect(safeUrl('data:text/html,<b>')).toBe('');
    expect(isExternalUrl('https://x')).toBe(true);
    expect(isExternalUrl('#/history')).toBe(false);
    expect(fenceInfo('language-ts')).toBe('ts');
    expect(fenceInfo(undefined)).toBeUndefined();
  });
});
