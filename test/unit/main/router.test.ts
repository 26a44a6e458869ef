import { describe, expect, it } from 'vitest';
import { namedProjectId, routePatch, type RoutableProject } from '../../../src/main/router.js';
import { answer } from '../../helpers/patches.js';

const shop: RoutableProject = { id: 'p1', projectId: 'shop', root: '/work/shop', watching: true };
const blog: RoutableProject = { id: 'p2', projectId: 'blog', root: '/work/blog', watching: true };

describe('routePatch', () => {
  it('routes an answer to the registered project whose projectId it names', () => {
    expect(routePatch(answer([{ path: 'a.ts', body: 'x' }], { projectId: 'blog' }), [shop, blog])).toEqual({ kind: 'project', project: blog });
  });

  it('says which projectId had no registered project', () => {
    expect(routePatch(answer([{ path: 'a.ts', body: 'x' }], { projectId: 'wiki' }), [shop, blog])).toEqual({ kind: 'no-project', projectId: 'wiki' });
  });

  it('skips projects whose watching is off', () => {
    expect(routePatch(answer([{ path: 'a.ts', body: 'x' }], { projectId: 'shop' }), [{ ...shop, watching: false }])).toEqual({ kind: 'no-project', projectId: 'shop' });
  });

  it('refuses to pick between two projects with the same projectId', () => {
    const twin = { ...shop, id: 'p3', root: '/work/shop-copy' };
    expect(routePatch(answer([{ path: 'a.ts', body: 'x' }], { projectId: 'shop' }), [shop, twin])).toMatchObject({ kind: 'ambiguous', projectId: 'shop' });
  });

  it('still finds the projectId of an answer that does not parse, so its error reaches the right project', () => {
    expect(namedProjectId('```ts // a.ts\ncut off...\n\nprojectId: shop\n')).toBe('shop');
    expect(routePatch('hello', [shop])).toMatchObject({ kind: 'not-a-patch' });
  });
});
