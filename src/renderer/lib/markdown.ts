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

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/** The components with every heading moved `offset` levels down (capped at h6), so a document's "#" fits under the page's own headings. */
function withHeadingOffset(offset: number): Components {
  if (offset <= 0) return markdownComponents;
  const shifted: Components = { ...markdownComponents };
  HEADINGS.forEach((tag, i) => {
    const target = HEADINGS[Math.min(HEADINGS.length - 1, i + offset)]!;
    shifted[tag] = ({ node: _node, ...rest }) => createElement(target, { ...rest, className: `md-${tag}` });
  });
  return shifted;
}

const shiftedComponents = new Map<number, Components>();

/**
 * Renders Markdown under the rules above. `headingOffset` moves its headings down (2 under a
 * page's h2), so heading levels stay in order; the look of each level is kept.
 */
export function RenderedMarkdown(props: { readonly text: string; readonly className?: string; readonly headingOffset?: number }): ReactNode {
  const offset = props.headingOffset ?? 0;
  if (!shiftedComponents.has(offset)) shiftedComponents.set(offset, withHeadingOffset(offset));
  return createElement(
    'div',
    { className: `markdown${props.className ? ` ${props.className}` : ''}` },
    createElement(Markdown, { remarkPlugins, components: shiftedComponents.get(offset)!, skipHtml: true, urlTransform: safeUrl }, props.text),
  );
}
