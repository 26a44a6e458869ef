// The window tells the truth and spends nothing behind the user's back (issue 17), end to end in
// Debian's chromium against `relay ui`'s server, the real host and engines, temp git repos and
// the fake Claude: the Run tick confirmation and its refusal as root, Cancel mid-tick, the diff
// first with the action bar always in view, refusals that lead somewhere, quiet notices, the
// first window, and an axe check of every page in both themes. The README's screenshots are
// taken here (docs/screenshots/).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayApi } from '../../src/shared/api.js';
import { checkAnswer } from '../../src/engine/patch/check.js';
import { agentLog, fakeAgentEnv } from '../helpers/fake-agents.js';
import { answer as blockAnswer, searchReplace } from '../helpers/patches.js';
import { answer, relayProject } from '../helpers/project.js';
import { gitIn } from '../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo } from '../integration/tick/harness.js';
import { axeBothThemes, axeViolations } from './support/axe.js';
import { docScreenshot, launchBrowser, screenshot, type TestBrowser } from './support/browser.js';
import { startDesk, type Desk } from './support/desk.js';
import { ApprovalDialogPage, DeskWindow, HistoryPage, PastePage, ProjectsPage, RunPage, until, visible } from './support/pages.js';
import { step } from './support/steps.js';

declare const window: { relay: RelayApi };

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const read = (root: string, file: string): string => readFileSync(path.join(root, file), 'utf8');
const CART = 'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n';
/** An answer whose SEARCH block expects `item.cost` where the file says `item.price`. */
const cartAnswer = (projectId: string, uuid?: string) =>
  blockAnswer([{ path: 'src/cart.js', body: searchReplace('  for (const item of items) sum += item.cost;', '  for (const item of items) sum += item.cost * item.qty;') }], { projectId, gitCommitMsg: 'Count quantities', ...(uuid ? { uuid } : {}) });

describe('a window that tells the truth and spends nothing behind your back', () => {
  let browser: TestBrowser;
  let desk: Desk;
  let tickRepo: TickRepo;
  /** Every axe finding of every page, reported at the end (and by the test that found it). */
  const violations: string[] = [];

  beforeAll(async () => {
    // The tick this desk runs verifies with a 10 s command, so Cancel lands mid-tick, after the builder edited.
    tickRepo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['sleep'] }), cost: 0.1 }], builder: [{ ...builderDoes(EDIT_A), cost: 0.2 }] });
    const env = { ...fakeAgentEnv(agentLog()), IS_SANDBOX: '1', FAKE_CLAUDE_LOG: tickRepo.logFile, FAKE_CLAUDE_SCENARIO: tickRepo.scenarioFile };
    browser = await launchBrowser();
    desk = await startDesk({ env });
  });

  afterAll(async () => {
    await browser?.close();
    await desk?.close();
  });

  async function openWindow(on: Desk = desk, hash = '') {
    const page = await browser.newPage();
    const win = new DeskWindow(page, on.server);
    await win.open(hash);
    return { page, window: win, projects: new ProjectsPage(win), paste: new PastePage(win), history: new HistoryPage(win), run: new RunPage(win), dialog: new ApprovalDialogPage(page) };
  }

  async function project(projectId: string, files: Record<string, string>, options: { auto?: boolean; on?: Desk } = {}): Promise<string> {
    const on = options.on ?? desk;
    const root = relayProject({ projectId, files });
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-qm', 'relay init');
    const registered = await on.host.call('registerProject', { root });
    if (!registered.ok) throw new Error(registered.error.message);
    if (options.auto) {
      const auto = await on.host.call('updateProjectSettings', { projectId, approvalPolicy: { mode: 'auto' } });
      if (!auto.ok) throw new Error(auto.error.message);
    }
    return root;
  }

  async function applied(projectId: string, text: string, on: Desk = desk) {
    const ticket = await on.host.call('applyPatch', { text, source: 'paste', projectId });
    if (!ticket.ok) throw new Error(ticket.error.message);
    const settled = await on.host.runtime.waitForTask(ticket.value.taskId);
    const listed = await on.host.call('listRuns', { projectId });
    const run = listed.ok ? listed.value.runs.find((r) => r.taskId === ticket.value.taskId) : undefined;
    if (!run) throw new Error(`no run for ${ticket.value.taskId}`);
    return { settled, run };
  }

  /** The axe check of the page as it is now, in both themes; a finding fails with the rule and the elements. */
  async function axe(page: Parameters<typeof axeBothThemes>[0], name: string): Promise<string[]> {
    const found = await axeBothThemes(page, name);
    violations.push(...found);
    if (found.length > 0) throw new Error(`axe found ${found.length} violation(s):\n${found.join('\n')}`);
    return found;
  }

  it('the first window says what Relay Desk does and adds a project from a checked path', async () => {
    const fresh = await startDesk();
    try {
      const root = relayProject({ projectId: 'first-project', files: { 'src/app.ts': 'export const v = 1;\n' } });
      const { page, projects } = await openWindow(fresh);
      await step('with no project, the window explains itself and offers to add one', async () => {
        await visible(page.getByRole('heading', { level: 1, name: 'Welcome to Relay Desk' }));
        const about = await page.getByRole('region', { name: 'What Relay Desk does' }).innerText();
        expect(about.split(/(?<=\.)\s+/).filter((s) => s.trim() !== '')).toHaveLength(2);
        await visible(page.getByRole('heading', { name: 'Add a project' }));
        // A browser has no folder picker: the path field is the way in.
        expect(await page.getByRole('button', { name: 'Choose a folder…' }).count()).toBe(0);
        expect(await page.getByText('is added here once, or opened by starting').count()).toBe(1);
        expect(await axe(page, 'first window')).toEqual([]);
        await docScreenshot(page, 'first-window');
      });
      await step('the axe check can fail: a grey-on-white line is found', async () => {
        await page.evaluate('(() => { const p = document.createElement("p"); p.id = "axe-probe"; p.textContent = "hard to read"; p.style.color = "#bbbbbb"; p.style.background = "#ffffff"; document.querySelector("main").append(p); })()');
        expect((await axeViolations(page)).join('\n')).toContain('color-contrast');
        await page.evaluate('document.getElementById("axe-probe").remove()');
      });
      await step('a relative path is refused as it is typed; the real one says what the folder is', async () => {
        await page.getByLabel('Project folder', { exact: true }).fill('code/project');
        expect(await (await visible(projects.folderCheck().locator('.text-danger'))).innerText()).toContain('must be absolute');
        await page.getByLabel('Project folder', { exact: true }).fill(root);
        expect(await (await visible(projects.folderCheck().locator('.text-success'))).innerText()).toContain('projectId first-project');
      });
      await step('add it: the window now shows its (empty) history', async () => {
        await page.getByRole('button', { name: 'Add project', exact: true }).click();
        await visible(page.getByRole('heading', { level: 1, name: 'History' }));
        await visible(page.getByRole('navigation', { name: 'Relay Desk' }).getByRole('link', { name: path.basename(root) }));
      });
      expect(page.errors).toEqual([]);
      await page.close();
    } finally {
      await fresh.close();
    }
  });

  it.runIf(isRoot)('a tick started from the window as root with bypassPermissions is refused exactly as `relais run` refuses it', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'] }) }], builder: [builderDoes(EDIT_A)] });
    // No IS_SANDBOX anywhere: Claude Code refuses bypassPermissions for root.
    const rootDesk = await startDesk({ env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile } });
    try {
      const cli = await repo.run({ IS_SANDBOX: '' });
      expect(cli.result.verdict).toBe('blocked');
      const registered = await rootDesk.host.call('registerProject', { root: repo.root, projectId: 'as-root' });
      if (!registered.ok) throw new Error(registered.error.message);
      repo.commit('relay init');
      const { page, projects } = await openWindow(rootDesk);
      await step('the confirmation shows the refusal relais run gives, and offers no Start', async () => {
        await projects.open();
        const dialog = await projects.confirmTick('as-root');
        const refused = await visible(dialog.getByTestId('tick-refused'));
        expect(await refused.innerText()).toContain(String(cli.result.code));
        expect(await refused.innerText()).toContain('Running as root');
        expect(await dialog.getByRole('button', { name: 'Start tick' }).count()).toBe(0);
        expect(await axe(page, 'tick confirmation (refused)')).toEqual([]);
        await screenshot(page, 'tick-confirm-root');
        await dialog.getByRole('button', { name: 'Close' }).click();
      });
      await step('started anyway through window.relay, the tick is refused with the same code, and Claude is never called', async () => {
        const ticket = (await page.evaluate(() => window.relay.runTick({ projectId: 'as-root' }))) as { ok: true; value: { taskId: string } };
        expect(ticket.ok).toBe(true);
        const settled = await rootDesk.host.runtime.waitForTask(ticket.value.taskId);
        const tick = settled?.status === 'completed' && settled.result.kind === 'tick' ? settled.result.tick : null;
        expect({ verdict: tick?.verdict, code: tick?.code }).toEqual({ verdict: 'blocked', code: cli.result.code });
        expect(repo.calls()).toEqual([]);
      });
      expect(page.errors).toEqual([]);
      await page.close();
    } finally {
      await rootDesk.close();
    }
  }, 90_000);

  /** The fake Claude's repository as project "cancel-me" (registered once; registering writes relay.config.json, committed). */
  async function tickProject(): Promise<void> {
    if (desk.store.projects.get('cancel-me')) return;
    const registered = await desk.host.call('registerProject', { root: tickRepo.root, projectId: 'cancel-me' });
    if (!registered.ok) throw new Error(registered.error.message);
    tickRepo.commit('relay init');
  }

  it('Run tick shows what it may spend; Cancel mid-tick rolls the tree back as the tick’s rules say', async () => {
    await tickProject();
    const before = tickRepo.file('src/a.ts');
    const { page, projects, history, run } = await openWindow();
    let status!: Awaited<ReturnType<ProjectsPage['runTick']>>;
    await step('the confirmation shows the limits, the budget left and today’s spend', async () => {
      await projects.open();
      const dialog = await projects.confirmTick('cancel-me');
      const text = await dialog.innerText();
      expect(text).toMatch(/up to \$2\.30/);
      expect(text).toContain('200 of 200 ticks');
      expect(text).toContain('$0.00 over 0 ticks');
      expect(await axe(page, 'tick confirmation')).toEqual([]);
      await dialog.getByRole('button', { name: 'Start tick' }).click();
      await dialog.waitFor({ state: 'detached' });
      status = projects.card('cancel-me').locator('.task-status');
    });
    await step('the builder edits, the verification runs: Cancel', async () => {
      await until('the builder’s edit on disk', () => (tickRepo.file('src/a.ts') !== before ? true : undefined), 60_000);
      await until('the verification to start', () => (tickRepo.markerLines().includes('sleep') ? true : undefined), 60_000);
      await status.getByRole('button', { name: 'Cancel' }).click();
      const done = await visible(status.and(page.locator('[data-task-state="completed"], [data-task-state="failed"]')), 60_000);
      const text = await done.innerText();
      expect(text).toContain('Tick STOP');
      expect(text).toContain('STOP_INTERRUPTED');
    });
    await step('the tree is as before the tick: the builder’s edit was rolled back', async () => {
      expect(tickRepo.file('src/a.ts')).toBe(before);
      expect(tickRepo.gitStatus()).toBe('');
    });
    await step('the stopped tick’s page: evidence, action bar and the Checks tab are axe-clean', async () => {
      await history.open({ project: 'cancel-me', kind: 'tick' });
      await history.openRun('Change the value of a.');
      expect(await page.getByRole('region', { name: 'Verdict' }).innerText()).toContain('STOP_INTERRUPTED');
      expect(await axe(page, 'run: tick (stopped)')).toEqual([]);
      await run.tab('Checks');
      expect(await axe(page, 'run: tick, Checks tab')).toEqual([]);
      await run.tab('REPORT.md');
      expect(await axe(page, 'run: tick, REPORT.md tab')).toEqual([]);
    });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('a page with a 2,000-line diff keeps its action bar in view, at the top and at the bottom', async () => {
    await project('big-diff', { 'src/app.ts': 'export const v = 1;\n' }, { auto: true });
    const big = Array.from({ length: 2000 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n');
    const { run: made } = await applied('big-diff', answer({ projectId: 'big-diff', files: { 'src/big.ts': big }, message: 'Add two thousand lines' }));
    const { page, window: win, run } = await openWindow();
    const inViewport = async (): Promise<boolean> => {
      const box = await run.actionBar().boundingBox();
      const viewport = page.viewportSize()!;
      return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
    };
    await step('open the run: the file list and the diff come first', async () => {
      await win.go(`#/runs/${encodeURIComponent(made.id)}`);
      await visible(page.getByRole('navigation', { name: 'Files in this change' }).getByText('src/big.ts'));
      await visible(page.locator('tr.line.add', { hasText: 'export const line1 = 1;' }));
      expect(await inViewport()).toBe(true);
    });
    await step('show all 2,000 lines and scroll to the end: the action bar is still in view, Revert one click away', async () => {
      await page.getByRole('button', { name: /^Show all \d+ lines$/ }).click();
      await visible(page.locator('tr.line.add', { hasText: 'export const line2000 = 2000;' }));
      await page.locator('tr.line.add', { hasText: 'export const line2000 = 2000;' }).scrollIntoViewIfNeeded();
      expect(await page.evaluate('document.querySelector("main").scrollTop')).toBeGreaterThan(30_000);
      expect(await inViewport()).toBe(true);
      await visible(run.actionBar().getByRole('button', { name: 'Revert…' }));
      await screenshot(page, 'run-patch-2000-lines-bottom');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('a refused answer keeps its reason and closest lines, copies the reply for the assistant, and retries once the file is fixed', async () => {
    const root = await project('refusals', { 'src/cart.js': CART }, { auto: true });
    const text = cartAnswer('refusals');
    const expected = checkAnswer(root, text);
    if (expected.ok || !expected.error.reply) throw new Error('the answer was meant to be refused with a reply');
    const { page, paste, history, run } = await openWindow();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: desk.server.origin });
    await step('pasted, it is refused on the spot with the closest lines and the reply', async () => {
      await paste.open();
      await paste.apply(text);
      const outcome = await paste.outcome();
      expect(outcome).toContain('SEARCH_NOT_FOUND');
      expect(outcome).toContain('sum += item.price');
      expect(await axe(page, 'paste (refused)')).toEqual([]);
    });
    await step('its run: the reason with the closest lines, and the action bar offers the reply and the retry', async () => {
      await history.open({ project: 'refusals' });
      await history.openRun('Count quantities');
      const refusal = await visible(page.getByRole('region', { name: 'Why it was refused' }));
      expect(await refusal.innerText()).toContain('SEARCH_NOT_FOUND');
      expect(await refusal.locator('.closest-lines').innerText()).toMatch(/^3\s+for \(const item of items\) sum \+= item\.price;$/m);
      expect(await axe(page, 'run: patch (refused)')).toEqual([]);
      await docScreenshot(page, 'refusal');
    });
    await step('Copy reply for the assistant copies the engine’s reply', async () => {
      await run.actionBar().getByRole('button', { name: 'Copy reply for the assistant' }).click();
      await visible(run.actionBar().getByRole('button', { name: 'Reply copied ✓' }));
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(expected.error.reply);
    });
    await step('the person renames price to cost; Retry after I edit the file applies the same answer', async () => {
      writeFileSync(path.join(root, 'src/cart.js'), CART.replace('item.price', 'item.cost'));
      await run.actionBar().getByRole('button', { name: 'Retry after I edit the file' }).click();
      const status = await visible(run.actionBar().locator('.task-status[data-task-state="completed"]'));
      expect(await status.innerText()).toContain('Patch applied');
      expect(read(root, 'src/cart.js')).toContain('sum += item.cost * item.qty;');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('notices: identical ones merge with a count, successes fade, errors stay, three at most', async () => {
    await project('noisy', { 'src/cart.js': CART, 'src/a.js': 'a\n', 'src/b.js': 'b\n', 'src/c.js': 'c\n' }, { auto: true });
    const { page, window: win } = await openWindow();
    const notices = page.getByRole('region', { name: 'Notifications' }).locator('li.notice');
    await step('the same refusal three times is one notice, ×3', async () => {
      for (let i = 0; i < 3; i += 1) await applied('noisy', cartAnswer('noisy'));
      const merged = await visible(win.notice('Patch not applied'));
      await until('the count to reach 3', async () => ((await merged.innerText()).includes('×3') ? true : undefined));
      expect(await notices.count()).toBe(1);
      // The code shows once, as a badge; the message does not repeat it.
      expect((await merged.innerText()).match(/SEARCH_NOT_FOUND/g)).toHaveLength(1);
    });
    await step('a success fades by itself; the error stays', async () => {
      await applied('noisy', answer({ projectId: 'noisy', files: { 'src/a.js': 'a2\n' }, message: 'Fine change' }));
      const success = await visible(win.notice('Patch applied'));
      await screenshot(page, 'notices');
      await success.waitFor({ state: 'detached', timeout: 20_000 });
      expect(await win.notice('Patch not applied').count()).toBe(1);
    });
    await step('more errors: three show, the rest are counted', async () => {
      const missing = (file: string) => blockAnswer([{ path: file, body: searchReplace(`nothing like this in ${file}`, 'x') }], { projectId: 'noisy', gitCommitMsg: `Break ${file}` });
      for (const file of ['src/a.js', 'src/b.js', 'src/c.js']) await applied('noisy', missing(file));
      await until('four error notices, three shown', async () => ((await notices.count()) === 3 ? true : undefined));
      await visible(page.getByRole('region', { name: 'Notifications' }).getByText('1 earlier notice'));
      expect(await axe(page, 'notices')).toEqual([]);
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('Review on a repository with nothing to review says so, and asks nothing', async () => {
    // One commit on main and nothing else: there is no base to compare HEAD with.
    const root = relayProject({ projectId: 'nothing-new', files: { 'src/app.ts': 'export const v = 1;\n' } });
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '--amend', '-m', 'initial');
    const registered = await desk.host.call('registerProject', { root });
    if (!registered.ok) throw new Error(registered.error.message);
    const { page } = await openWindow(desk, '#/projects/nothing-new/review');
    await page.getByRole('button', { name: 'Request review' }).click();
    const said = await visible(page.locator('.task-status').getByText('Nothing to review.'));
    expect(await said.locator('..').innerText()).toContain('HEAD');
    expect(await page.getByRole('region', { name: /^Answer/ }).count()).toBe(0);
    expect(await page.getByRole('alert').filter({ hasText: 'NOTHING_TO_REVIEW' }).count()).toBe(0);
    expect(await axe(page, 'review (nothing to review)')).toEqual([]);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('every page passes axe in the light and the dark theme; the README’s screenshots are taken', async () => {
    const root = await project('tour', { 'src/app.ts': 'export const v = 1;\n// Totals\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n', 'README.md': '# tour\n' });
    // A branch with a commit, so a review has something to look at.
    gitIn(root, 'checkout', '-qb', 'feature');
    writeFileSync(path.join(root, 'README.md'), '# tour\n\nNow with a feature.\n');
    gitIn(root, 'commit', '-qam', 'feature: readme');
    const { page, window: win, history, run, dialog, paste } = await openWindow();
    const visit = async (name: string, hash: string, ready: () => Promise<unknown>) => {
      await win.go(hash);
      await ready();
      expect(await axe(page, name)).toEqual([]);
    };
    await step('a patch waiting for approval: the dialog', async () => {
      await paste.open();
      await paste.apply(
        answer({
          projectId: 'tour',
          files: { 'src/app.ts': 'export const v = 2;\n// Totals\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n', 'src/util.ts': 'export const double = (n: number) => n * 2;\n' },
          message: 'Bump v and add double',
        }),
      );
      await dialog.waitOpen();
      await dialog.armed();
      expect(await axe(page, 'approval dialog')).toEqual([]);
      await dialog.approveButton().click();
      await dialog.waitClosed();
      expect(await axe(page, 'paste (applied)')).toEqual([]);
    });
    await step('the patch page (diff first), the README’s screenshot', async () => {
      await history.open({ project: 'tour', kind: 'patch' });
      await history.openRun('Bump v and add double');
      await visible(page.getByRole('navigation', { name: 'Files in this change' }));
      expect(await axe(page, 'run: patch (approved)')).toEqual([]);
      await docScreenshot(page, 'patch-page');
      // Highlighted code in the split layout too.
      await page.getByRole('radio', { name: 'Split' }).first().click();
      await visible(page.locator('table.diff-split'));
      expect(await axe(page, 'run: patch (split diff)')).toEqual([]);
      await page.getByRole('radio', { name: 'Unified' }).first().click();
    });
    await step('the keyboard reaches the action bar from the title, with a visible focus ring', async () => {
      await page.locator('main h1').focus();
      const revert = run.actionBar().getByRole('button', { name: 'Revert…' });
      await until('Tab to reach Revert…', async () => {
        if (await revert.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)) return true;
        await page.keyboard.press('Tab');
        return undefined;
      });
      const outline = await revert.evaluate((el) => {
        const style = (el.ownerDocument.defaultView as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } }).getComputedStyle(el);
        return { style: style.outlineStyle, width: style.outlineWidth };
      });
      expect(outline.style).not.toBe('none');
      expect(Number.parseFloat(outline.width)).toBeGreaterThanOrEqual(2);
      await page.keyboard.press('Enter');
      await visible(page.getByRole('group', { name: 'Confirm revert' }));
      await page.getByRole('group', { name: 'Confirm revert' }).getByRole('button', { name: 'Keep it' }).click();
    });
    await step('an ask, a review and a handoff: their run pages', async () => {
      const asked = await desk.host.call('ask', { projectId: 'tour', prompt: 'Is v = 2 sensible?', backend: 'codex', includeDiff: false });
      if (!asked.ok) throw new Error(asked.error.message);
      await desk.host.runtime.waitForTask(asked.value.taskId);
      const reviewed = await desk.host.call('review', { projectId: 'tour', backend: 'codex', base: 'main' });
      if (!reviewed.ok) throw new Error(reviewed.error.message);
      await desk.host.runtime.waitForTask(reviewed.value.taskId);
      const brief = await desk.host.call('buildHandoff', { projectId: 'tour' });
      if (!brief.ok) throw new Error(brief.error.message);
      await desk.host.runtime.waitForTask(brief.value.taskId);
      for (const [kind, name] of [['relay', 'run: ask'], ['review', 'run: review'], ['handoff', 'run: handoff']] as const) {
        await history.open({ project: 'tour', kind });
        await (await visible(history.rows())).first().click();
        await visible(run.header());
        expect(await axe(page, name)).toEqual([]);
      }
    });
    await step('History, Projects, Settings, Paste, Ask, Review, Handoff', async () => {
      await visit('history', '#/history', () => visible(history.rows()));
      await visit('history (one project)', '#/history?project=tour', () => visible(history.rows()));
      await visit('projects', '#/projects', () => visible(page.getByRole('heading', { name: 'Add a project' })));
      await visit('settings', '#/settings', () => visible(page.getByRole('heading', { name: 'Agent programs' })));
      await visit('paste', '#/paste', () => visible(page.getByLabel('Answer')));
      await visit('ask', '#/projects/tour/ask', () => visible(page.getByLabel('Your question')));
      await visit('review', '#/projects/tour/review', () => visible(page.getByLabel('Base branch')));
      await visit('handoff', '#/projects/tour/handoff', () => visible(page.getByRole('heading', { name: 'Preview' })));
      await visit('not found', '#/nowhere', () => visible(page.getByText('There is no page at')));
    });
    await step('a SUCCESS tick page (this time the 10 s verification is left to pass), the README’s screenshot', async () => {
      await tickProject();
      const ticket = await desk.host.call('runTick', { projectId: 'cancel-me' });
      if (!ticket.ok) throw new Error(ticket.error.message);
      const settled = await desk.host.runtime.waitForTask(ticket.value.taskId);
      expect(settled?.status === 'completed' && settled.result.kind === 'tick' ? settled.result.tick.code : null).toBe('SUCCESS');
      await history.open({ project: 'cancel-me', kind: 'tick', status: 'done' });
      await (await visible(history.row('Change the value of a.').filter({ hasText: 'success' }))).first().click();
      await visible(run.actionBar().getByRole('button', { name: 'Approve & commit…' }));
      // The tabs follow the ARIA pattern: the arrow keys move between them.
      await page.getByRole('tab', { name: /^Changes/ }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'Checks' }).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('End');
      expect(await page.getByRole('tab', { name: 'REPORT.md' }).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('Home');
      expect(await axe(page, 'run: tick (success)')).toEqual([]);
      await docScreenshot(page, 'tick-page');
    });
    expect(page.errors).toEqual([]);
    await page.close();
    expect(violations).toEqual([]);
  }, 240_000);
});
