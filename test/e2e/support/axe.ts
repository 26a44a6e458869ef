// The axe-core accessibility check, injected into the page under test (through the DevTools
// protocol, so the page's own Content-Security-Policy stays as it is) and run on the whole
// document. A violation fails the test with its rule, its impact and the elements it found.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets checked: WCAG 2.0/2.1/2.2 A and AA, and axe's best practices (heading order, landmarks…). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] as const;

interface AxeNode {
  readonly target: unknown;
  readonly failureSummary?: string;
  readonly html: string;
}
interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly AxeNode[];
}

/** Runs axe on the page as it is now; returns one line per violation (empty: none). */
export async function axeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] }).then((r) => r.violations)`)) as AxeViolation[];
  return violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes
      .slice(0, 5)
      .map((n) => `    ${JSON.stringify(n.target)} ${n.html.slice(0, 160)}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`)
      .join('\n')}`,
  );
}

/** Checks the page in the light and the dark theme; returns every violation, labelled by theme and page name. */
export async function axeBothThemes(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const line of await axeViolations(page)) found.push(`[${name}, ${colorScheme}] ${line}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
