// Routing an incoming answer among registered projects (real folders on disk): by the control
// block's projectId for Relay Desk's own format, by what it fits for an assistant's own format.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitIn, keepsCurrentFile } from '../../../src/engine/patch/fit.js';
import { namedProjectId, takeAnswer } from '../../../src/engine/patch/incoming.js';
import { routeAnswer, takeForRouting, type RouteTarget } from '../../../src/engine/patch/route.js';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { answer as relayAnswer, searchReplace } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';

const CART = [
  "import { Item } from './item';",
  '',
  'export function total(items: Item[]): number {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price * item.quantity;',
  '  return sum;',
  '}',
  '',
  'export function isEmpty(items: Item[]): boolean {',
  '  return items.length === 0;',
  '}',
  '',
].join('\n');

const POSTS = ['export interface Post {', '  title: string;', '  body: string;', '}', '', 'export function slug(post: Post): string {', "  return post.title.toLowerCase().replace(/\\s+/g, '-');", '}', ''].join('\n');

function projects(): { shop: RouteTarget; blog: RouteTarget; twin: RouteTarget } {
  const shop = relayProject({ projectId: 'shop', files: { 'src/cart.ts': CART, 'src/index.ts': "export * from './cart';\n", 'README.md': '# Shop\n', 'package.json': '{ "name": "shop" }\n' } });
  const blog = relayProject({ projectId: 'blog', files: { 'src/posts.ts': POSTS, 'src/index.ts': "export * from './posts';\n", 'README.md': '# Blog\n', 'bin/serve': '#!/bin/sh\nexec node dist/server.js\n' } });
  // A copy of the shop (a fork, a second checkout): the same cart.ts.
  const twin = relayProject({ projectId: 'shop-fork', files: { 'src/cart.ts': CART, 'README.md': '# Fork\n' } });
  return { shop: { projectId: 'shop', root: shop }, blog: { projectId: 'blog', root: blog }, twin: { projectId: 'shop-fork', root: twin } };
}

const route = (text: string, targets: readonly RouteTarget[]) => routeAnswer(takeForRouting(text, targets), targets);

const cartEdit = `I made \`total\` round to cents.\n\nsrc/cart.ts\n\`\`\`ts\n${searchReplace('  for (const item of items) sum += item.price * item.quantity;\n  return sum;', '  for (const item of items) sum += item.price * item.quantity;\n  return Math.round(sum * 100) / 100;')}\n\`\`\`\n`;

describe('routeAnswer', () => {
  describe('answers with a control block', () => {
    it('go to the project their projectId names, whatever their edits match', () => {
      const { shop, blog } = projects();
      const text = relayAnswer([{ path: 'src/nowhere.ts', body: 'x' }], { projectId: 'blog' });
      expect(route(text, [shop, blog])).toEqual({ kind: 'project', projectId: 'blog', by: 'project-id' });
    });

    it('name a project that is not among the targets (not registered, or not watching)', () => {
      const { shop } = projects();
      expect(route(relayAnswer([{ path: 'a.ts', body: 'x' }], { projectId: 'wiki' }), [shop])).toEqual({ kind: 'unknown-project', projectId: 'wiki' });
    });

    it('still reach their project when they do not parse, so the refusal is recorded there', () => {
      const { shop, blog } = projects();
      const cut = '```ts // src/cart.ts\ncut off in the middle...\n\nprojectId: shop\nuuid: 5f0c6a8e-0000-4000-8000-000000000001\n';
      const taken = takeForRouting(cut, [shop, blog]);
      expect(taken.read).toMatchObject({ ok: false, error: { code: 'TRUNCATED_RESPONSE' } });
      expect(routeAnswer(taken, [shop, blog])).toEqual({ kind: 'project', projectId: 'shop', by: 'project-id' });
    });

    it('a projectId in a copied config (no uuid beside it) sends nothing anywhere', () => {
      const { shop } = projects();
      const firebase = 'Init it like this:\n\n```js\nconst app = initializeApp({\n  projectId: "shop",\n  apiKey: "AIza...",\n';
      expect(namedProjectId(firebase)).toBeNull();
      expect(route(firebase, [shop])).toMatchObject({ kind: 'ignored' });
    });
  });

  describe('answers in an assistant’s own format', () => {
    it('go to the one project every edit fits', () => {
      const { shop, blog } = projects();
      expect(route(cartEdit, [shop, blog])).toEqual({ kind: 'project', projectId: 'shop', by: 'fit' });
      const diff = `\`\`\`diff\n--- a/src/posts.ts\n+++ b/src/posts.ts\n@@ -5,3 +5,3 @@\n export function slug(post: Post): string {\n-  return post.title.toLowerCase().replace(/\\s+/g, '-');\n+  return post.title.trim().toLowerCase().replace(/\\s+/g, '-');\n }\n\`\`\`\n`;
      expect(route(diff, [shop, blog])).toEqual({ kind: 'project', projectId: 'blog', by: 'fit' });
    });

    it('ask when several projects fit', () => {
      const { shop, blog, twin } = projects();
      expect(route(cartEdit, [shop, blog, twin])).toEqual({ kind: 'choose', projectIds: ['shop', 'shop-fork'] });
    });

    it('are ignored when they edit files no project has (a diff of another repository)', () => {
      const { shop, blog } = projects();
      const foreign = 'diff --git a/lib/parser.rb b/lib/parser.rb\n--- a/lib/parser.rb\n+++ b/lib/parser.rb\n@@ -1,3 +1,3 @@\n class Parser\n-  VERSION = 1\n+  VERSION = 2\n end\n';
      expect(route(foreign, [shop, blog])).toMatchObject({ kind: 'ignored' });
    });

    it('tell the closest refusal when they are clearly meant for a project but no longer match', () => {
      const { shop, blog } = projects();
      const stale = `src/cart.ts\n\`\`\`ts\n${searchReplace('  for (const item of items) sum += item.cost * item.quantity;\n  return sum;', '  return 0;')}\n\`\`\`\n`;
      const routed = route(stale, [shop, blog]);
      expect(routed).toMatchObject({ kind: 'no-fit', projectId: 'shop', refusal: { code: 'SEARCH_NOT_FOUND', closest: { startLine: 5 }, block: { format: 'search-replace', path: 'src/cart.ts' } } });
      if (routed.kind !== 'no-fit') throw new Error('unreachable');
      expect(routed.refusal.reply).toContain('The SEARCH block for src/cart.ts');
      expect(routed.refusal.closest!.similarity).toBeGreaterThanOrEqual(0.6);
    });

    it('are ignored when their change is already in the file (the user\'s own `git diff`, copied from a terminal)', () => {
      const { shop, blog } = projects();
      const own = `$ git diff\ndiff --git a/src/cart.ts b/src/cart.ts\n--- a/src/cart.ts\n+++ b/src/cart.ts\n@@ -3,5 +3,5 @@\n export function total(items: Item[]): number {\n   let sum = 0;\n-  for (const item of items) sum += item.price;\n+  for (const item of items) sum += item.price * item.quantity;\n   return sum;\n }\n`;
      const read = takeForRouting(own, [shop, blog]).read;
      if (!read.ok) throw new Error(read.error.message);
      expect(fitIn(shop.root, read.value)).toMatchObject({ kind: 'no', inFile: true });
      expect(route(own, [shop, blog])).toMatchObject({ kind: 'ignored' });
    });

    it('are ignored when an edit of an existing file is far from anything in it (an example from elsewhere)', () => {
      const { shop } = projects();
      const other = `src/cart.ts\n\`\`\`ts\n${searchReplace('const router = express.Router();\nrouter.get("/health", ok);', 'const router = express.Router();')}\n\`\`\`\n`;
      expect(route(other, [shop])).toMatchObject({ kind: 'ignored' });
    });

    it('may create a file in a folder the project has, next to an edit that ties it to the project', () => {
      const { shop, blog } = projects();
      const withNew = `${cartEdit}\n**src/money.ts**\n\`\`\`ts\nexport const round = (n: number) => Math.round(n * 100) / 100;\n\`\`\`\n`;
      expect(route(withNew, [shop, blog])).toEqual({ kind: 'project', projectId: 'shop', by: 'fit' });
      const newFolder = `${cartEdit}\n**src/money/round.ts**\n\`\`\`ts\nexport const round = (n: number) => n;\n\`\`\`\n`;
      const read = takeAnswer(newFolder).read;
      if (!read.ok) throw new Error(read.error.message);
      expect(fitIn(shop.root, read.value)).toMatchObject({ kind: 'no', why: 'src/money/round.ts would need a new folder' });
      expect(route(newFolder, [shop, blog])).toMatchObject({ kind: 'ignored' });
    });

    it('that only create files are tied to no project, and ignored', () => {
      const { shop, blog } = projects();
      const created = '**src/util.ts**\n```ts\nexport const id = <T>(x: T): T => x;\n```\n';
      expect(route(created, [shop, blog])).toMatchObject({ kind: 'ignored' });
    });

    it('as whole files: a version of the current file fits, unrelated text under its name does not', () => {
      const { shop, blog } = projects();
      const rewritten = `Here is the updated file.\n\n**src/cart.ts**\n\`\`\`ts\n${CART.replace('return sum;', 'return Math.round(sum * 100) / 100;')}\`\`\`\n`;
      expect(route(rewritten, [shop, blog])).toEqual({ kind: 'project', projectId: 'shop', by: 'fit' });
      const example = "From the README:\n\n```ts\n// src/index.ts\nimport { createServer } from 'node:http';\ncreateServer((req, res) => res.end('hi')).listen(3000);\n```\n";
      expect(route(example, [shop, blog])).toMatchObject({ kind: 'ignored' });
    });

    it('count a move of an existing file, with or without an edit after it', () => {
      const { shop, blog } = projects();
      const move = '*** Begin Patch\n*** Update File: src/posts.ts\n*** Move to: src/blog-posts.ts\n@@ export function slug(post: Post): string {\n-  return post.title.toLowerCase().replace(/\\s+/g, \'-\');\n+  return post.title.trim().toLowerCase().replace(/\\s+/g, \'-\');\n*** End Patch\n';
      expect(route(move, [shop, blog])).toEqual({ kind: 'project', projectId: 'blog', by: 'fit' });
      const pure = 'diff --git a/src/cart.ts b/src/basket.ts\nsimilarity index 100%\nrename from src/cart.ts\nrename to src/basket.ts\n';
      expect(route(pure, [shop, blog])).toEqual({ kind: 'project', projectId: 'shop', by: 'fit' });
      // A deletion carries nothing to check against the file: it ties the answer to no project.
      expect(route('*** Begin Patch\n*** Delete File: src/cart.ts\n*** End Patch\n', [shop, blog])).toMatchObject({ kind: 'ignored' });
    });

    it('recognise an extension-less path that exists in one of the projects', () => {
      const { shop, blog } = projects();
      const serve = `bin/serve\n\`\`\`sh\n${searchReplace('exec node dist/server.js', 'exec node --enable-source-maps dist/server.js')}\n\`\`\`\n`;
      expect(route(serve, [shop, blog])).toEqual({ kind: 'project', projectId: 'blog', by: 'fit' });
    });

    it('copied again after being applied go to that project, whose transaction says so', async () => {
      const { shop, blog } = projects();
      const first = await applyPatch({ root: shop.root, text: cartEdit, source: 'clipboard', decide: async () => ({ approve: true }) });
      expect(first.status).toBe('applied');
      expect(readFileSync(path.join(shop.root, 'src/cart.ts'), 'utf8')).toContain('Math.round');
      expect(route(cartEdit, [shop, blog])).toEqual({ kind: 'project', projectId: 'shop', by: 'already-applied' });
    });
  });
});

describe('keepsCurrentFile', () => {
  const file = 'a line one\nb line two\nc line three\nd line four\n';
  it('counts a version that keeps most lines, not a fragment or unrelated text', () => {
    expect(keepsCurrentFile(file, `${file}e line five\n`)).toBe(true);
    expect(keepsCurrentFile(file, 'a line one\nb line two\n')).toBe(false); // a piece of it: would delete the rest
    expect(keepsCurrentFile(file, 'something else\nentirely\nnew\n')).toBe(false);
    expect(keepsCurrentFile('x\n', 'x\ny\n')).toBe(false); // too small to tell
  });
});
