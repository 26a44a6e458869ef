// Running a patch corpus (fixtures/patch-corpus*) through the built `relay` CLI: each case is
// a before/ tree, a response.md, the expected after/ tree and case.json saying applied|rejected.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { relay, REPO_ROOT } from './cli.js';
import { emptyFolders, gitRepo, readTree } from './temp.js';

export interface CaseMeta {
  readonly id: string;
  readonly category: string;
  readonly expect: 'applied' | 'rejected';
  readonly description: string;
  /** The refusal code a rejected case must be refused with (so it cannot pass for the wrong reason). */
  readonly code?: string;
  /** Native corpora: the answer's format variant (git-diff, v4a-fenced, …). */
  readonly format?: string;
}

/** The six kinds of case the public corpus has; every extra corpus covers all of them. */
export const CATEGORIES = ['clean', 'unified-diff-defect', 'search-replace-defect', 'format-variation', 'must-reject', 'tricky-valid'];

export function corpusDir(name: string): string {
  return path.join(REPO_ROOT, 'fixtures', name);
}

/** The case folders of a corpus (named `NNN-…`). */
export function corpusCases(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^\d{3}-/.test(name));
}

export function readCaseMeta(caseDir: string): CaseMeta {
  return JSON.parse(readFileSync(path.join(caseDir, 'case.json'), 'utf8')) as CaseMeta;
}

/** Every case names itself, has a known category and outcome, and all six categories occur. */
export function expectWellFormedCorpus(dir: string, cases: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of cases) {
    const meta = readCaseMeta(path.join(dir, name));
    expect(meta.id).toBe(name);
    expect(CATEGORIES).toContain(meta.category);
    expect(['applied', 'rejected']).toContain(meta.expect);
    if (meta.expect === 'rejected') expect(meta.code, `${name} pins no refusal code`).toMatch(/^[A-Z][A-Z0-9_]+$/);
    seen.add(meta.category);
  }
  expect([...seen].sort()).toEqual([...CATEGORIES].sort());
}

/**
 * Applies the case's answer with `relay apply --yes --json` in a fresh git repo of its before/
 * tree: an applied case must leave exactly the after/ tree, a rejected one the tree untouched
 * and be refused with the code case.json pins (or `pinned.code`, for a corpus kept as published).
 */
export async function expectCaseThroughCli(caseDir: string, pinned: { readonly code?: string } = {}): Promise<void> {
  const fromFile = readCaseMeta(caseDir);
  const meta = pinned.code === undefined ? fromFile : { ...fromFile, code: pinned.code };
  const root = gitRepo({ fromDir: path.join(caseDir, 'before') });
  expect((await relay(['init', '--project-id', 'corpus'], { cwd: root })).exitCode).toBe(0);
  const before = readTree(root);

  const run = await relay(['apply', path.join(caseDir, 'response.md'), '--yes', '--json'], { cwd: root });
  const result = JSON.parse(run.stdout) as { status: string; error: { code: string } | null };

  if (meta.expect === 'applied') {
    expect(result.status, `${meta.description}\n${run.stdout}`).toBe('applied');
    expect(run.exitCode).toBe(0);
    expect(readTree(root)).toEqual(readTree(path.join(caseDir, 'after')));
  } else {
    expect(result.status, `${meta.description}\n${run.stdout}`).toBe('rejected');
    expect(meta.code, `${meta.id} pins no refusal code in case.json`).toBeTruthy();
    expect(result.error?.code, `${meta.description}\n${run.stdout}`).toBe(meta.code);
    expect(run.exitCode).toBe(1);
    expect(readTree(root)).toEqual(before);
    expect(emptyFolders(root)).toEqual([]);
  }
}
