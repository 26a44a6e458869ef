// An answer without a control block that fits two registered projects, in a real browser: the
// window shows the choice above the view, and picking a project applies it there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchReplace } from '../helpers/patches.js';
import { relayProject } from '../helpers/project.js';
import { launchBrowser, screenshot, type TestBrowser } from './support/browser.js';
import { startDesk, type Desk } from './support/desk.js';
import { DeskWindow, until, visible } from './support/pages.js';
import { step } from './support/steps.js';

const FILE = 'export const price = 10;\nexport const tax = 0.2;\nexport const total = price * (1 + tax);\n';

describe('choosing the project of an answer that fits several', () => {
  let browser: TestBrowser;
  let desk: Desk;
  beforeAll(async () => {
    browser = await launchBrowser();
    desk = await startDesk();
  });
  afterAll(async () => {
    await browser?.close();
    await desk?.close();
  });

  it('shows a bar with one button per project; the one clicked gets the change', async () => {
    const roots: Record<string, string> = {};
    for (const projectId of ['shop', 'shop-copy']) {
      roots[projectId] = relayProject({ projectId, files: { 'src/prices.ts': FILE } });
      expect(await desk.host.call('registerProject', { root: roots[projectId]! })).toMatchObject({ ok: true });
      await desk.host.call('updateProjectSettings', { projectId, approvalPolicy: { mode: 'auto' } });
    }
    const page = await browser.newPage();
    await new DeskWindow(page, desk.server).open();

    await step('an answer that fits both projects asks which one', async () => {
      const text = `Raised the tax.\n\nsrc/prices.ts\n\`\`\`ts\n${searchReplace('export const tax = 0.2;', 'export const tax = 0.25;')}\n\`\`\`\n`;
      expect(await desk.host.call('applyPatch', { text, source: 'paste' })).toMatchObject({ ok: false, error: { code: 'PROJECT_CHOICE_NEEDED' } });
      await visible(page.getByRole('region', { name: 'Which project is “Raised the tax” for?' }));
      await screenshot(page, 'project-choice');
    });
    await step('apply it to the copy', async () => {
      await page.getByRole('button', { name: 'Apply to shop-copy' }).click();
      await until('the change in shop-copy', () => (readFileSync(path.join(roots['shop-copy']!, 'src/prices.ts'), 'utf8').includes('0.25') ? true : undefined));
      expect(readFileSync(path.join(roots.shop!, 'src/prices.ts'), 'utf8')).toBe(FILE);
      await until('the bar to go away', async () => ((await page.getByRole('button', { name: 'Apply to shop-copy' }).count()) === 0 ? true : undefined));
    });
  });
});
