// The Relay Desk window end to end: Debian's chromium (playwright-core) against `relay ui`'s
// server serving the built renderer, over the real host, real engines and temp git repos.
// Each scenario is what a person does, step by step, checked on disk where it matters.
// Screenshots of every view go to test-artifacts/screenshots/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runId as storeRunId } from '../../src/engine/store/index.js';
import { fakeAgentEnv, agentLog } from '../helpers/fake-agents.js';
import { answer } from '../helpers/project.js';
import { answer as blockAnswer, searchReplace } from '../helpers/patches.js';
import { relayProject } from '../helpers/project.js';
import { gitIn, readTree } from '../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo } from '../integration/tick/harness.js';
import { launchBrowser, screenshot, type TestBrowser } from './support/browser.js';
import { startDesk, type Desk } from './support/desk.js';
import { ApprovalDialogPage, DeskWindow, HistoryPage, PastePage, ProjectsPage, RunPage, until, visible } from './support/pages.js';
import { step } from './support/steps.js';

const read = (root: string, file: string): string => readFileSync(path.join(root, file), 'utf8');

describe('the Relay Desk window in a real browser', () => {
  let browser: TestBrowser;
  let desk: Desk;
  let tickRepo: TickRepo;

  beforeAll(async () => {
    // The tick's fake Claude reads its scenario from files the repo names, so it exists before the host.
    // The builder's session ends at 92.5% of its context: the runtime raises a handoff prompt.
    const fullSession = { session_id: 'builder-session-1', usage: { input_tokens: 185_000, output_tokens: 0 }, context_window: 200_000 };
    tickRepo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'] }), cost: 0.1 }], builder: [{ ...builderDoes(EDIT_A), cost: 0.2, ...fullSession }] });
    const env = { ...fakeAgentEnv(agentLog()), IS_SANDBOX: '1', FAKE_CLAUDE_LOG: tickRepo.logFile, FAKE_CLAUDE_SCENARIO: tickRepo.scenarioFile };
    browser = await launchBrowser();
    desk = await startDesk({ env });
  });

  afterAll(async () => {
    await browser?.close();
    await desk?.close();
  });

  /** A fresh page on the window, and its page objects. */
  async function openWindow(hash = '') {
    const page = await browser.newPage();
    const window = new DeskWindow(page, desk.server);
    await window.open(hash);
    return { page, window, projects: new ProjectsPage(window), paste: new PastePage(window), history: new HistoryPage(window), run: new RunPage(window), dialog: new ApprovalDialogPage(page) };
  }

  /** A project registered through the host (the register scenario itself goes through the form). */
  async function project(projectId: string, files: Record<string, string>, patch: Parameters<typeof relayProject>[0]['patch'] = {}): Promise<string> {
    const root = relayProject({ projectId, files, patch });
    const registered = await desk.host.call('registerProject', { root });
    if (!registered.ok) throw new Error(registered.error.message);
    return root;
  }

  it('registers a folder, shows its projectId and settings, and copies its system prompt', async () => {
    const root = relayProject({ projectId: 'webshop', files: { 'src/app.ts': 'export const v = 1;\n' } });
    const { page, projects } = await openWindow();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: desk.server.origin });

    await step('open Projects: the empty state invites a registration', async () => {
      await projects.open();
      await visible(page.getByText('No projects yet.'));
    });
    await step('the path is checked as it is typed: what the folder is, before adding it', async () => {
      await page.getByLabel('Project folder', { exact: true }).fill(root);
      const check = await visible(projects.folderCheck().locator('.text-success'));
      expect(await check.innerText()).toContain('has relay.config.json (projectId webshop)');
    });
    await step('add the folder by its absolute path', async () => {
      const confirmation = await projects.register(root);
      expect(await confirmation.innerText()).toContain('webshop');
      await visible(projects.card('webshop'));
      expect(await projects.card('webshop').locator('.project-id').innerText()).toBe('webshop');
    });
    await step('a folder that does not exist is refused with the host’s code before anything is sent', async () => {
      await page.getByLabel('Project folder', { exact: true }).fill('/no/such/folder');
      const error = await visible(projects.folderCheck().locator('.text-danger'));
      expect(await error.innerText()).toContain('ROOT_NOT_FOUND');
      expect(await error.innerText()).toContain('No folder at /no/such/folder');
      expect(await page.getByRole('button', { name: 'Add project', exact: true }).isDisabled()).toBe(true);
      await page.getByLabel('Project folder', { exact: true }).fill(root);
      await visible(projects.folderCheck().getByText('Already added as'));
      await page.getByLabel('Project folder', { exact: true }).fill('');
    });
    await step('settings: approval asks by default; watching is on', async () => {
      const settings = await projects.openSettings('webshop');
      expect(await settings.getByRole('radio', { name: 'Ask me every time' }).isChecked()).toBe(true);
      expect(await settings.getByRole('switch').isChecked()).toBe(true);
    });
    await step('change the linter: it is written to relay.config.json', async () => {
      const settings = await projects.openSettings('webshop');
      await settings.getByLabel('Linter').fill('node --version');
      await settings.getByRole('button', { name: 'Save linter' }).click();
      await until('the linter in relay.config.json', () => (JSON.parse(read(root, 'relay.config.json')).patch.linter === 'node --version' ? true : undefined));
      await settings.getByLabel('Linter').fill('');
      await settings.getByRole('button', { name: 'Save linter' }).click();
      await until('the linter removed', () => (JSON.parse(read(root, 'relay.config.json')).patch.linter === '' ? true : undefined));
    });
    await step('approve automatically: the next answer applies without a dialog', async () => {
      const settings = await projects.openSettings('webshop');
      await settings.getByRole('radio', { name: 'Approve automatically', exact: true }).check();
      await visible(projects.card('webshop').locator('.badge', { hasText: 'auto-approves' }));
      const ticket = await desk.host.call('applyPatch', { text: answer({ projectId: 'webshop', files: { 'src/app.ts': 'export const v = 10;\n' }, message: 'Auto' }), source: 'paste' });
      expect(ticket.ok).toBe(true);
      await until('the auto-approved patch on disk', () => (read(root, 'src/app.ts') === 'export const v = 10;\n' ? true : undefined));
      expect(await page.getByRole('dialog').count()).toBe(0);
      await settings.getByRole('radio', { name: 'Ask me every time' }).check();
      await visible(projects.card('webshop').locator('.badge', { hasText: 'asks before applying' }));
      const state = await desk.host.call('getRuntimeState', {});
      expect(state.ok && state.value.projects.find((p) => p.projectId === 'webshop')?.policy).toEqual({ mode: 'ask' });
    });
    await step('turn clipboard watching off', async () => {
      const settings = await projects.openSettings('webshop');
      await settings.getByRole('switch').uncheck();
      await until('watching off in the store', async () => {
        const listed = await desk.host.call('listProjects', {});
        return listed.ok && listed.value.find((p) => p.projectId === 'webshop')?.settings.watching === false ? true : undefined;
      });
    });
    await step('remove another project after confirming; its folder stays', async () => {
      const other = relayProject({ projectId: 'leaving' });
      await projects.register(other);
      const settings = await projects.openSettings('leaving');
      await settings.getByRole('button', { name: 'Remove…' }).click();
      await settings.getByRole('group', { name: 'Confirm removing leaving' }).getByRole('button', { name: 'Remove project' }).click();
      await projects.card('leaving').waitFor({ state: 'detached' });
      expect(read(other, 'relay.config.json')).toContain('leaving');
    });
    await step('copy the system prompt: it names the projectId', async () => {
      await projects.copySystemPrompt('webshop');
      const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
      expect(copied).toContain('webshop');
    });
    await screenshot(page, 'projects');
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('paste → approval dialog → approve: the file changes on disk and History shows it live', async () => {
    const root = await project('approve-demo', { 'src/app.ts': 'export const v = 1;\n', 'README.md': '# demo\n' });
    const watcher = await openWindow();
    const { page, paste, dialog, history, run } = await openWindow();

    await step('a second window keeps History open for this project', async () => {
      await watcher.history.open({ project: 'approve-demo' });
      await visible(watcher.page.getByText('No runs match these filters.'));
    });
    await step('paste an answer and apply it', async () => {
      await paste.open();
      await paste.apply(answer({ projectId: 'approve-demo', files: { 'src/app.ts': 'export const v = 2;\n' }, message: 'Bump v to 2' }));
    });
    await step('the approval dialog lists the file with its +/- counts and diff', async () => {
      await dialog.waitOpen();
      expect(await dialog.fileSections().count()).toBe(1);
      const text = await dialog.dialog.innerText();
      expect(text).toContain('src/app.ts');
      expect(text).toContain('Bump v to 2');
      expect(text).toMatch(/\+1\s*−1/);
      expect(text).toContain('No linter is configured');
      await visible(dialog.dialog.locator('tr.line.add', { hasText: 'export const v = 2;' }));
      await dialog.armed();
      await screenshot(page, 'approval-dialog');
    });
    await step('while it waits, the other window shows a waiting row', async () => {
      await visible(watcher.history.row('Bump v to 2').filter({ hasText: 'waiting' }));
    });
    await step('approve', async () => {
      await dialog.approveButton().click();
      await dialog.waitClosed();
      expect(await paste.outcome()).toContain('Patch applied');
    });
    await step('the file on disk changed', async () => {
      expect(read(root, 'src/app.ts')).toBe('export const v = 2;\n');
    });
    await step('History (the other window, no reload) shows the approved run', async () => {
      const row = await visible(watcher.history.row('Bump v to 2').filter({ hasText: 'approved' }));
      expect(await row.innerText()).toMatch(/\+1\s*−1/);
      await screenshot(watcher.page, 'history');
    });
    await step('open the run: diff, commit message, state', async () => {
      await history.open({ project: 'approve-demo' });
      await history.openRun('Bump v to 2');
      expect(await run.state().innerText()).toContain('approved');
      await visible(run.section('Commit message').getByText('Bump v to 2'));
      await visible(page.locator('tr.line.del', { hasText: 'export const v = 1;' }));
      await screenshot(page, 'run-patch');
    });
    await step('the split view pairs the old and new line', async () => {
      await page.getByRole('radio', { name: 'Split' }).first().click();
      const pair = await visible(page.locator('table.diff-split tr.pair', { has: page.locator('td.del') }));
      expect(await pair.innerText()).toContain('export const v = 1;');
      expect(await pair.innerText()).toContain('export const v = 2;');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'run-patch-split-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByRole('radio', { name: 'Unified' }).first().click();
    });
    expect(page.errors).toEqual([]);
    expect(watcher.page.errors).toEqual([]);
    await watcher.page.close();
    await page.close();
  });

  it('reject (Esc) after reading the linter’s verdict: the tree is byte-identical to before', async () => {
    // A linter that finds an error wherever a 99 appears in docs/app.md. (It is a node script, which
    // may load any code file of the project: a patch to one would wait for a person before any
    // linting, so this answer changes documents.)
    const linter = ['node', '-e', "const s = require('fs').readFileSync('docs/app.md', 'utf8'); if (s.includes('99')) { console.log('docs/app.md:1 error: 99 is not allowed'); process.exit(1); }"];
    const root = await project('reject-demo', { 'docs/app.md': 'export const v = 1;\n', 'docs/keep.md': 'export const k = 1;\n' }, { linter });
    const before = readTree(root);
    const status = gitIn(root, 'status', '--porcelain', '--untracked-files=all');
    const { page, paste, dialog } = await openWindow();

    await step('paste an answer that changes one file and creates another', async () => {
      await paste.open();
      await paste.apply(answer({ projectId: 'reject-demo', files: { 'docs/app.md': 'export const v = 99;\n', 'docs/new/extra.md': 'export const e = 1;\n' }, message: 'Unwanted change' }));
      await dialog.waitOpen();
      expect(await dialog.fileSections().count()).toBe(2);
      await dialog.armed();
    });
    await step('the linter’s verdict is shown before deciding', async () => {
      const verdict = await visible(dialog.dialog.getByRole('region', { name: 'Linter result' }));
      expect(await verdict.innerText()).toContain('1 new error (0 before, 1 after)');
      expect(await verdict.innerText()).toContain('99 is not allowed');
      await screenshot(page, 'approval-dialog-linter');
    });
    await step('Esc asks before rejecting; Esc again keeps the patch under review', async () => {
      await page.keyboard.press('Escape');
      const confirm = await visible(dialog.dialog.getByRole('group', { name: 'Reject this patch?' }));
      await screenshot(page, 'approval-dialog-confirm-reject');
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(await dialog.dialog.isVisible()).toBe(true);
    });
    await step('Esc, then Reject patch: the patch is rejected', async () => {
      await page.keyboard.press('Escape');
      await dialog.dialog.getByRole('group', { name: 'Reject this patch?' }).getByRole('button', { name: 'Reject patch' }).click();
      await dialog.waitClosed();
      expect(await paste.outcome()).toContain('Patch rejected');
    });
    await step('every byte is as before, and git sees no change', async () => {
      expect(readTree(root)).toEqual(before);
      expect(gitIn(root, 'status', '--porcelain', '--untracked-files=all')).toBe(status);
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('partial approval (⌘/Ctrl+Enter): the checked file is kept, the unchecked one rolled back', async () => {
    const root = await project('partial-demo', { 'src/app.ts': 'export const v = 1;\n', 'src/util.ts': 'export const u = 1;\n' });
    const { page, paste, dialog, history, run } = await openWindow();

    await step('paste an answer that changes two files', async () => {
      await paste.open();
      await paste.apply(answer({ projectId: 'partial-demo', files: { 'src/app.ts': 'export const v = 3;\n', 'src/util.ts': 'export const u = 3;\n' }, message: 'Change app and util' }));
      await dialog.waitOpen();
      await dialog.armed();
    });
    await step('uncheck src/util.ts: the button says what will happen', async () => {
      await dialog.keepBox('src/util.ts').uncheck();
      await visible(dialog.dialog.getByRole('button', { name: /Approve 1 of 2 files/ }));
      await screenshot(page, 'approval-dialog-partial');
    });
    await step('approve with the keyboard shortcut', async () => {
      await page.keyboard.press('Control+Enter');
      await dialog.waitClosed();
      const outcome = await paste.outcome();
      expect(outcome).toContain('Patch applied');
      expect(outcome).toContain('1 rolled back (src/util.ts)');
    });
    await step('on disk: app.ts kept, util.ts restored', async () => {
      expect(read(root, 'src/app.ts')).toBe('export const v = 3;\n');
      expect(read(root, 'src/util.ts')).toBe('export const u = 1;\n');
    });
    await step('the run lists only the kept file', async () => {
      await history.open({ project: 'partial-demo' });
      await history.openRun('Change app and util');
      await visible(page.getByRole('region', { name: 'Changes to src/app.ts' }));
      expect(await page.getByRole('region', { name: 'Changes to src/util.ts' }).count()).toBe(0);
      expect(await run.state().innerText()).toContain('approved');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('reverts an approved patch from its run detail', async () => {
    const root = await project('revert-demo', { 'src/app.ts': 'export const v = 1;\n' });
    const applied = await desk.host.call('applyPatch', { text: answer({ projectId: 'revert-demo', files: { 'src/app.ts': 'export const v = 5;\n' }, message: 'Set v to 5' }), source: 'paste' });
    if (!applied.ok) throw new Error(applied.error.message);
    const { page, dialog, history, run } = await openWindow();

    await step('approve the waiting patch in the dialog the window opens on load', async () => {
      await dialog.waitOpen();
      await dialog.armed();
      await dialog.approveButton().click();
      await dialog.waitClosed();
      await until('the patch on disk', () => (read(root, 'src/app.ts') === 'export const v = 5;\n' ? true : undefined));
    });
    await step('open the run and revert it', async () => {
      await history.open({ project: 'revert-demo' });
      await history.openRun('Set v to 5');
      const outcome = await run.revert();
      expect(await outcome.innerText()).toContain('Reverted');
    });
    await step('the file is back on disk and the run says reverted', async () => {
      expect(read(root, 'src/app.ts')).toBe('export const v = 1;\n');
      await visible(run.state().locator('.badge', { hasText: 'reverted' }));
      await visible(run.state().getByText('Reverted by'));
      await screenshot(page, 'run-patch-reverted');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('runs a tick with the fake Claude and renders its REPORT.md, verdict, verification and budgets', async () => {
    const registered = await desk.host.call('registerProject', { root: tickRepo.root, projectId: 'ticks' });
    if (!registered.ok) throw new Error(registered.error.message);
    tickRepo.commit('relay init'); // registering wrote relay.config.json; a tick needs a clean tree
    const { page, window, projects, history, run } = await openWindow();

    await step('Run tick asks first, showing what the tick may spend', async () => {
      await projects.open();
      const confirm = await projects.confirmTick('ticks');
      const text = await confirm.innerText();
      expect(text).toContain('up to $2.30');
      expect(text).toContain('2 orchestrator calls');
      expect(text).toContain('Budget left (milestone');
      expect(text).toContain('$80.00 of $80.00');
      expect(text).toContain('Spent today');
      expect(text).toContain('no tick of this project has reported a cost yet');
      await screenshot(page, 'tick-confirm');
      await confirm.getByRole('button', { name: 'Not now' }).click();
      await confirm.waitFor({ state: 'detached' });
    });
    await step('Run tick from the project card', async () => {
      const status = await projects.runTick('ticks');
      const done = await visible(status.and(page.locator('[data-task-state="completed"], [data-task-state="failed"]')), 60_000);
      expect(await done.innerText()).toContain('Tick SUCCESS');
    });
    await step('the tick changed the file', async () => {
      expect(tickRepo.file('src/a.ts')).toBe('export const a = 2;\n');
    });
    await step('open the tick from History', async () => {
      await history.open({ project: 'ticks', kind: 'tick' });
      await history.openRun('Change the value of a.');
    });
    await step('the verdict and code come first', async () => {
      const banner = await visible(page.getByRole('region', { name: 'Verdict' }));
      expect(await banner.innerText()).toMatch(/^SUCCESS/);
      expect(await banner.innerText()).toContain('Change the value of a.');
    });
    await step('the page opens on the change: the file list and its diff, the evidence in the header', async () => {
      const changes = await visible(page.getByRole('tabpanel'));
      await visible(changes.getByRole('navigation', { name: 'Files in this change' }).getByText('src/a.ts'));
      await visible(changes.locator('tr.line.add', { hasText: 'export const a = 2;' }));
      expect(await page.getByRole('region', { name: 'Verdict' }).innerText()).toMatch(/\+1\s*−1 in 1 file/);
      expect(await page.getByRole('region', { name: 'Verdict' }).innerText()).toContain('1 check passed');
      expect(await page.getByRole('region', { name: 'Verdict' }).innerText()).toContain('cost $0.30');
      // REPORT.md is in its own tab, not on the page.
      expect(await page.locator('.report-md').count()).toBe(0);
      await screenshot(page, 'run-tick');
    });
    await step('REPORT.md is rendered as GitHub-flavoured Markdown in its tab: its table and its code', async () => {
      const report = await run.tab('REPORT.md');
      await visible(report.getByRole('heading', { name: /Relais tick/ }));
      const table = await visible(report.locator('table'));
      expect(await table.innerText()).toContain('pass');
      await visible(report.locator('code', { hasText: 'SUCCESS' }));
    });
    await step('the Checks tab: verification runs with their log, budgets as of this tick', async () => {
      await run.tab('Checks');
      const verification = run.section('Verification');
      expect(await verification.innerText()).toContain('passed');
      // A passed command's log is folded away; open it.
      await verification.locator('summary').first().click();
      expect(await (await visible(verification.locator('pre.log'))).first().innerText()).toContain('$ node -e');
      const meters = run.page.getByRole('meter');
      expect(await meters.count()).toBe(5);
      expect(await run.section(/Budgets/).innerText()).toContain('as of this tick');
      expect(await run.section(/Budgets/).innerText()).toContain('1 of 200');
      await run.tab(/^Changes/);
    });
    await step('Approve & commit from the action bar: the message is prefilled from the intent, and only the touched path is committed', async () => {
      const before = gitIn(tickRepo.root, 'rev-parse', 'HEAD').trim();
      await run.actionBar().getByRole('button', { name: 'Approve & commit…' }).click();
      const offer = await visible(run.section('Approve & commit'));
      expect(await offer.getByRole('list', { name: 'Paths to commit' }).innerText()).toBe('src/a.ts');
      const message = offer.getByLabel('Commit message');
      expect(await message.inputValue()).toMatch(/^relais \S+: Change the value of a\.$/);
      await message.fill('Set a to 2 (approved in the window)');
      await offer.getByRole('button', { name: 'Commit', exact: true }).click();
      const committed = await visible(run.section('Committed'), 30_000);
      const sha = gitIn(tickRepo.root, 'rev-parse', 'HEAD').trim();
      expect(sha).not.toBe(before);
      expect(await committed.locator('.commit-sha').innerText()).toBe(sha.slice(0, 12));
      expect(gitIn(tickRepo.root, 'log', '-1', '--format=%s%n%P', '--name-only').trim().split('\n')).toEqual(['Set a to 2 (approved in the window)', before, '', 'src/a.ts']);
      expect(tickRepo.gitStatus()).toBe('');
      await run.section('Approve & commit').waitFor({ state: 'detached' });
      await screenshot(page, 'run-tick-committed');
    });
    await step('the builder’s session passed 90% of its context: the window offers a handoff', async () => {
      const prompt = await visible(page.getByRole('region', { name: 'Hand off ticks?' }));
      expect(await prompt.innerText()).toContain('93%');
      await screenshot(page, 'handoff-prompt');
      await prompt.getByRole('button', { name: 'Write the brief' }).click();
      await prompt.waitFor({ state: 'detached' });
      await visible(window.notice('Brief saved'));
      expect(readdirSync(path.join(tickRepo.root, '.relaycode', 'handoffs')).some((f) => f.endsWith('.md'))).toBe(true);
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('shows the engine’s code and message for an answer it cannot route or apply', async () => {
    const root = await project('errors-demo', { 'src/app.ts': 'export const v = 1;\n' });
    const { page, paste, history } = await openWindow();

    // Text that is no answer at all is refused at once (answers without a control block are routed by what they fit).
    await step('text that is not an answer is refused at once', async () => {
      await paste.open();
      await paste.apply('Sure! Here is some advice, but no patch.');
      const error = await visible(paste.result().getByRole('alert'));
      const text = await error.innerText();
      expect(text).toContain('NOT_AN_ANSWER');
      expect(text).toContain('not an answer for any registered project');
    });
    await step('a SEARCH block that matches nothing fails in the engine', async () => {
      await page.getByRole('button', { name: 'Clear' }).click();
      await paste.apply(blockAnswer([{ path: 'src/app.ts', body: searchReplace('export const nope = 0;', 'export const nope = 1;') }], { projectId: 'errors-demo', gitCommitMsg: 'Impossible edit' }));
      const outcome = await paste.outcome();
      expect(outcome).toContain('SEARCH_NOT_FOUND');
      expect(outcome).toContain('the SEARCH block was not found');
      await screenshot(page, 'paste-error');
    });
    await step('nothing changed on disk, and History records the refusal with its code', async () => {
      expect(read(root, 'src/app.ts')).toBe('export const v = 1;\n');
      await history.open({ project: 'errors-demo' });
      const row = await visible(history.row('Impossible edit'));
      expect(await row.innerText()).toContain('SEARCH_NOT_FOUND');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('scrolls smoothly through 10,000 runs: a virtualised list over paged queries', async () => {
    const bulk = await startDesk();
    try {
      const root = relayProject({ projectId: 'bulk' });
      const registered = await bulk.host.call('registerProject', { root });
      if (!registered.ok) throw new Error(registered.error.message);
      const kinds = ['patch', 'tick', 'relay'] as const;
      // One run a minute up to now, so the relative times read like a real history.
      const start = Date.now() - 10_001 * 60_000;
      bulk.store.transaction(() => {
        for (let i = 1; i <= 10_000; i += 1) {
          const kind = kinds[i % 3]!;
          bulk.store.runs.upsert({
            id: storeRunId('bulk', kind, `run-${String(i).padStart(5, '0')}`),
            projectId: 'bulk',
            kind,
            status: i % 17 === 0 ? 'failed' : 'done',
            verdict: kind === 'patch' ? 'approved' : kind === 'tick' ? (i % 5 === 0 ? 'stop' : 'success') : null,
            code: kind === 'tick' ? (i % 5 === 0 ? 'STOP_VERIFY_FAILED_FAST' : 'SUCCESS') : null,
            title: `Run #${String(i).padStart(5, '0')}`,
            summary: kind === 'relay' ? 'codex answered' : `${(i % 7) + 1} files, +${i % 50}/-${i % 9}`,
            startedAt: new Date(start + i * 60_000).toISOString(),
            endedAt: null,
            file: null,
            origin: 'app',
            taskId: null,
            detail: null,
          });
        }
      });
      const page = await browser.newPage();
      const window = new DeskWindow(page, bulk.server);
      const history = new HistoryPage(window);

      await step('the first page shows the newest runs, and only a screenful is in the DOM', async () => {
        await window.open();
        await visible(history.row('Run #10000'));
        expect(await history.count().innerText()).toMatch(/^200\+ runs/);
        expect(await history.rows().count()).toBeLessThan(60);
        await screenshot(page, 'history-10k');
      });
      await step('scrolling to the end pages in every run; the DOM stays small', async () => {
        const list = page.getByTestId('run-list');
        // Each scroll to the bottom brings the next page; the last page lands below the fold, so
        // keep scrolling until the oldest run itself is on screen.
        await until(
          'the oldest run to be reached by scrolling',
          async () => {
            await list.evaluate((el) => {
              const box = el as unknown as { scrollTop: number; scrollHeight: number };
              box.scrollTop = box.scrollHeight;
            });
            return (await history.row('Run #00001').isVisible()) ? true : undefined;
          },
          120_000,
        );
        expect(await history.count().innerText()).toMatch(/^10,000 runs/);
        expect(await history.rows().count()).toBeLessThan(60);
      });
      await step('a kind filter narrows the list through the URL', async () => {
        await history.open({ project: 'bulk', kind: 'tick' });
        await visible(history.row('Run #10000'));
        const texts = await history.rows().allInnerTexts();
        expect(texts.length).toBeGreaterThan(0);
        for (const row of texts) expect(row).toContain('Tick');
      });
      expect(page.errors).toEqual([]);
      await page.close();
    } finally {
      await bulk.close();
    }
  }, 180_000);

  it('changes the app’s own settings, and shows the host’s code when one is refused', async () => {
    const { page, window } = await openWindow();
    await step('open Settings', async () => {
      await window.nav('Settings');
      await visible(page.getByRole('heading', { name: 'Agent programs' }));
    });
    await step('turn notifications off', async () => {
      await page.getByRole('switch', { name: 'Desktop notifications' }).uncheck();
      await until('notifications off in the store', async () => {
        const settings = await desk.host.call('getAppSettings', {});
        return settings.ok && !settings.value.notifications ? true : undefined;
      });
    });
    await step('a relative agent path is refused with INVALID_INPUT', async () => {
      await page.getByLabel('claude').fill('bin/claude');
      await page.getByRole('button', { name: 'Save paths' }).click();
      const error = await visible(page.getByRole('alert').filter({ hasText: 'INVALID_INPUT' }));
      expect(await error.innerText()).toContain('must be an absolute path');
    });
    await step('an absolute one is saved', async () => {
      await page.getByLabel('claude').fill('/opt/claude/bin/claude');
      await page.getByRole('button', { name: 'Save paths' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'Saved.' }));
      const settings = await desk.host.call('getAppSettings', {});
      expect(settings.ok && settings.value.agentPaths.claude).toBe('/opt/claude/bin/claude');
      await screenshot(page, 'settings');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('opens a run that is not in the history with the host’s error', async () => {
    const { page, window } = await openWindow();
    await window.go(`#/runs/${encodeURIComponent(storeRunId('nowhere', 'patch', 'missing'))}`);
    const error = await visible(page.getByRole('alert'));
    expect(await error.innerText()).toContain('RUN_NOT_FOUND');
    await page.close();
  });
});
