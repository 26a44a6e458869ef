// How Markdown from engines and agents is shown (REPORT.md, answers, briefs): GitHub-flavoured
// (tables, task lists, strikethrough, autolinks) through react-markdown + remark-gfm, with the
// rules a desktop window needs. Raw HTML is never rendered, links cannot run script, and
// remote images are shown as links: the window's CSP would block them and fetching them
// would tell a server what the person is reading.
import { createElement, type ReactNode } from 'react';
import Markdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { highlightCode, languageForFence } from './highlight';

/** A URL a rendered link or image may carry; '' for anything that could run code or leave the page unsafely. */
export function safeUrl(url: string): string {
  const trimmed = url.trim();
  if (/^data:image\/(png|gif|jpeg|webp);base64,/i.test(trimmed)) return trimmed;
  // defaultUrlTransform keeps http(s), mailto, irc(s), xmpp and relative URLs; it blanks javascript:, data:, vbscript:…
  return defaultUrlTransform(trimmed);
}

/** True for links that leave the window (opened by the system browser, never inside the app). */
export function isExternalUrl(url: string): boolean {
  return /^(https?:|mailto:)/i.test(url);
}

/** "language-ts" (react-markdown's class for ```ts) → "ts". */
export function fenceInfo(className: string | undefined): string | undefined {
  return /(?:^|\s)language-([\w+#.-]+)/.exec(className ?? '')?.[1];
}

export const markdownComponents: Components = {
  a: ({ href, children, node: _node, ...rest }) => {
    const url = href ?? '';
    if (url === '') return createElement('span', { className: 'md-dead-link' }, children);
    return isExternalUrl(url) ? createElement('a', { ...rest, href: url, target: '_blank', rel: 'noreferrer noopener' }, children) : createElement('a', { ...rest, href: url }, children);
  },
  img: ({ src, alt }) => {
    const url = typeof src === 'string' ? src : '';
    if (url.startsWith('data:image/')) return createElement('img', { src: url, alt: alt ?? '' });
    const label = `🖼 ${alt || 'image'}`;
    return url ? createElement('a', { href: url, target: '_blank', rel: 'noreferrer noopener', className: 'md-image-link' }, label) : createElement('span', { className: 'md-image-link' }, label);
  },
  code: ({ className, children, node: _node, ...rest }) => {
    const info = fenceInfo(className);
    const text = String(children ?? '');
    // Inline code has no language class and no newline; it stays plain.
    if (info === undefined && !text.includes('\n')) return createElement('code', { ...rest, className }, children);
    const language = languageForFence(info);
    return createElement('code', { className: `hljs${language ? ` language-${language}` : ''}`, dangerouslySetInnerHTML: { __html: highlightCode(text.replace(/\n$/, ''), language) } });
  },
  table: ({ children, node: _node, ...rest }) => createElement('div', { className: 'md-table-wrap' }, createElement('table', rest, children)),
  input: ({ node: _node, ...rest }) => createElement('input', { ...rest, disabled: true }),
};

const remarkPlugins = [remarkGfm];

/** Renders Markdown under the rules above. */
export function RenderedMarkdown(props: { readonly text: string; readonly className?: string }): ReactNode {
  return createElement(
    'div',
    { className: `markdown${props.className ? ` ${props.className}` : ''}` },
    createElement(Markdown, { remarkPlugins, components: markdownComponents, skipHtml: true, urlTransform: safeUrl }, props.text),
  );
}
