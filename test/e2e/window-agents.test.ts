// "Ask a friend" and "Hand off" in the window, end to end: the real host and relay/handoff
// engines, the fake codex/gemini/claude CLIs first on PATH, and a loopback Ollama whose
// stream the test holds open, so the streamed answer is seen arriving before it ends.
// "Start in a terminal" opens a fake x-terminal-emulator on the server's PATH, which really
// runs the `relay handoff --resume … --to codex` it is given.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLog, fakeAgentEnv, lastArg, type AgentLog } from '../helpers/fake-agents.js';
import { HANDOFF_PREAMBLE } from '../../src/engine/handoff/dispatch.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { FAKE_SECRETS, recordPatch } from '../helpers/handoff.js';
import { relayProject } from '../helpers/project.js';
import { gitIn, tempDir } from '../helpers/temp.js';
import { launchBrowser, screenshot, type TestBrowser } from './support/browser.js';
import { startDesk, type Desk } from './support/desk.js';
import { DeskWindow, HistoryPage, RunPage, until, visible } from './support/pages.js';
import { step } from './support/steps.js';

/** A loopback Ollama: `/api/chat` streams two NDJSON lines, then waits for `release()` before the last. */
interface HeldOllama {
  readonly url: string;
  readonly requests: unknown[];
  release(): void;
  close(): Promise<void>;
}

async function heldOllama(lines: { readonly first: readonly string[]; readonly last: string }): Promise<HeldOllama> {
  const requests: unknown[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : null;
      requests.push({ path: request.url, body });
      if (request.url === '/api/chat') {
        response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
        for (const text of lines.first) response.write(`${JSON.stringify({ message: { role: 'assistant', content: text }, done: false })}\n`);
        void released.then(() => {
          response.end(`${JSON.stringify({ message: { role: 'assistant', content: lines.last }, done: true, done_reason: 'stop' })}\n`);
        });
        return;
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Ask a friend and Hand off in a real browser', () => {
  let browser: TestBrowser;
  let desk: Desk;
  let ollama: HeldOllama;
  let log: AgentLog;
  const terminalRecord = path.join(tempDir('relay-terminal-'), 'terminal.jsonl');

  beforeAll(async () => {
    ollama = await heldOllama({ first: ['Looks ', '**fine**'], last: ' to me.\n\n| file | verdict |\n| --- | --- |\n| src/app.ts | ok |\n' });
    log = agentLog();
    browser = await launchBrowser();
    const env = fakeAgentEnv(log, { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'llama-test', FAKE_TERMINAL_RECORD: terminalRecord });
    env.PATH = `${path.join(REPO_ROOT, 'fixtures', 'fake-terminal')}${path.delimiter}${env.PATH}`;
    desk = await startDesk({ env });
  });

  afterAll(async () => {
    ollama?.release();
    await browser?.close();
    await desk?.close();
    await ollama?.close();
  });

  async function openWindow(hash = '') {
    const page = await browser.newPage();
    const window = new DeskWindow(page, desk.server);
    await window.open(hash);
    return { page, window, history: new HistoryPage(window), run: new RunPage(window) };
  }

  async function project(projectId: string, files: Record<string, string> = { 'src/app.ts': 'export const v = 1;\n' }): Promise<string> {
    const root = relayProject({ projectId, files });
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-qm', 'relay init');
    const registered = await desk.host.call('registerProject', { root });
    if (!registered.ok) throw new Error(registered.error.message);
    return root;
  }

  it('asks about the working tree: backend picker, diff included, the answer streams in and is saved as a run', async () => {
    const root = await project('friendly');
    writeFileSync(path.join(root, 'src/app.ts'), 'export const v = 42;\n');
    const watcher = await openWindow();
    await watcher.history.open({ project: 'friendly' });
    const { page, window, run } = await openWindow();

    await step('open Ask a friend from the project card', async () => {
      await window.nav('Projects');
      await page.locator('section[data-project-id="friendly"]').getByRole('link', { name: 'Ask a friend' }).click();
      await visible(page.getByRole('heading', { name: /Ask a friend/ }));
    });
    await step('ask ollama, with the working tree’s diff', async () => {
      await page.getByLabel('Your question').fill('Is the new value of v sensible?');
      await page.getByLabel('Backend').selectOption('ollama');
      const diff = page.getByRole('checkbox', { name: /Include the working tree’s git diff/ });
      expect(await diff.isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
    });
    await step('the first words stream in while the answer is still being written', async () => {
      const streamed = page.getByRole('log', { name: 'Streamed answer' });
      await until('the streamed text', async () => ((await streamed.innerText()).includes('Looks **fine**') ? true : undefined));
      expect(await page.locator('.task-status').first().getAttribute('data-task-state')).toBe('running');
      await screenshot(page, 'ask-streaming');
    });
    await step('History (another window) shows the ask running, live; its run follows the task', async () => {
      const row = watcher.history.row('Is the new value of v sensible?');
      await visible(row.locator('.badge', { hasText: 'running' }));
      await row.first().click();
      await visible(watcher.run.header());
      expect(await watcher.page.locator('.task-status').first().getAttribute('data-task-state')).toBe('running');
      await visible(watcher.page.getByRole('button', { name: 'Cancel' }));
      await until('the streamed text in the run', async () => ((await watcher.page.getByRole('log', { name: 'Streamed answer' }).innerText()).includes('Looks **fine**') ? true : undefined));
      await screenshot(watcher.page, 'run-running');
    });
    await step('the model got the question and the diff', () => {
      const chat = ollama.requests.find((r) => (r as { path: string }).path === '/api/chat') as { body: { model: string; messages: Array<{ content: string }> } };
      expect(chat.body.model).toBe('llama-test');
      const prompt = chat.body.messages[0]!.content;
      expect(prompt).toContain('Is the new value of v sensible?');
      expect(prompt).toContain('+export const v = 42;');
      return Promise.resolve();
    });
    await step('the answer completes and is rendered as Markdown', async () => {
      ollama.release();
      const answer = page.getByRole('region', { name: /Answer from ollama/ });
      await visible(answer.locator('table'));
      expect(await answer.locator('strong').innerText()).toBe('fine');
      await screenshot(page, 'ask-answered');
    });
    await step('the answer is saved as a run in History', async () => {
      await page.getByRole('link', { name: 'Open the run in History →' }).click();
      await visible(run.header());
      expect(await run.header().innerText()).toContain('Ask');
      const request = page.getByRole('region', { name: 'Request' });
      expect(await request.innerText()).toContain('ollama');
      expect(await request.innerText()).toContain('Is the new value of v sensible?');
      await visible(page.getByRole('region', { name: 'Answer' }).locator('table'));
    });
    await step('the other window, still on the running run, now shows the saved answer; History has one row, done', async () => {
      await visible(watcher.page.getByRole('region', { name: 'Answer' }).locator('table'));
      await watcher.history.open({ project: 'friendly' });
      await visible(watcher.history.row('Is the new value of v sensible?'));
      expect(await watcher.history.rows().count()).toBe(1);
      expect(await watcher.history.row('Is the new value of v sensible?').locator('.badge', { hasText: 'running' }).count()).toBe(0);
    });
    expect(page.errors).toEqual([]);
    expect(watcher.page.errors).toEqual([]);
    await watcher.page.close();
    await page.close();
  });

  it('asks about a run: the run goes along as context, to the backend picked', async () => {
    const root = await project('about-run');
    const uuid = await recordPatch(root, { projectId: 'about-run', file: 'src/app.ts', body: 'export const v = 7;', message: 'Set v to 7' });
    await desk.host.call('reindexProject', { projectId: 'about-run' });
    const { page, history } = await openWindow();
    const before = log.calls().length;

    await step('open the patch run and choose “Ask a friend about this run”', async () => {
      await history.open({ project: 'about-run' });
      await history.openRun('Set v to 7');
      await page.getByRole('link', { name: 'Ask a friend about this run' }).click();
      await visible(page.getByRole('checkbox', { name: /Send the run “Set v to 7” as context/ }));
    });
    await step('ask gemini', async () => {
      await page.getByLabel('Your question').fill('Would you have done this differently?');
      await page.getByLabel('Backend').selectOption('gemini');
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
      await visible(page.getByRole('region', { name: /Answer from gemini/ }));
    });
    await step('gemini got the question and the run as context', () => {
      const calls = log.calls().slice(before);
      expect(calls.map((c) => c.agent)).toEqual(['gemini']);
      const sent = `${calls[0]!.argv.join(' ')}\n${calls[0]!.stdin}`;
      expect(sent).toContain('Would you have done this differently?');
      expect(sent).toContain('# Relay Desk run: Set v to 7');
      expect(sent).toContain('+export const v = 7;');
      expect(uuid).toBeTruthy();
      return Promise.resolve();
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('asks for a review of the branch against main', async () => {
    const root = await project('reviewed');
    gitIn(root, 'checkout', '-qb', 'feature');
    writeFileSync(path.join(root, 'src/app.ts'), 'export const v = 2;\n');
    gitIn(root, 'commit', '-qam', 'feature: v = 2');
    const { page } = await openWindow('#/projects/reviewed/review');
    const before = log.calls().length;

    await step('request a review from codex against main', async () => {
      await page.getByLabel('Base branch').fill('main');
      await page.getByRole('button', { name: 'Request review' }).click();
      const answer = await visible(page.getByRole('region', { name: /Answer from codex/ }));
      expect(await answer.innerText()).toContain('review against main');
    });
    await step('codex ran its own review command', () => {
      const [call] = log.calls().slice(before);
      expect(call?.agent).toBe('codex');
      expect(call?.argv.slice(0, 2)).toEqual(['exec', 'review']);
      expect(lastArg(call!)).toBeTruthy();
      return Promise.resolve();
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('hands off: previews the brief with its validation, copies it, saves it, and starts it in a terminal (the command stays to copy)', async () => {
    const root = await project('handy');
    await recordPatch(root, { projectId: 'handy', file: 'src/cache.ts', body: 'export const cache = new Map();', message: 'Add the forecast cache' });
    const { page } = await openWindow('#/projects/handy/handoff');
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: desk.server.origin });

    await step('the preview shows size, sections and both validations', async () => {
      const summary = await visible(page.getByRole('region', { name: 'Brief summary' }));
      expect(await summary.innerText()).toMatch(/~[\d,]+ tokens \(soft cap 4,000, hard cap 8,000\)/);
      expect(await summary.innerText()).toContain('Working memory');
      expect(await page.getByRole('region', { name: 'Saving' }).innerText()).toContain('passes');
      expect(await page.getByRole('region', { name: 'Dispatching' }).innerText()).toContain('passes');
      const preview = page.getByRole('region', { name: 'Preview' });
      await visible(preview.getByRole('heading', { name: 'Handoff brief: handy' }));
      expect(await preview.innerText()).toContain('Add the forecast cache');
      await screenshot(page, 'handoff-preview');
    });
    await step('copy the brief', async () => {
      await page.getByRole('button', { name: 'Copy brief' }).click();
      await visible(page.getByRole('button', { name: /Copied/ }));
      const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
      expect(copied).toMatch(/^# Handoff brief: handy/);
    });
    await step('save it: the brief is written under .relaycode/handoffs/', async () => {
      await page.getByRole('button', { name: 'Save brief' }).click();
      const command = await visible(page.getByRole('region', { name: 'Continue in a terminal' }));
      const saved = /Saved (\.relaycode\/handoffs\/(brief-\d+-[a-z0-9]+)\.md)/.exec(await command.innerText());
      expect(saved, await command.innerText()).not.toBeNull();
      expect(existsSync(path.join(root, saved![1]!))).toBe(true);
      expect(readFileSync(path.join(root, saved![1]!), 'utf8')).toContain('Add the forecast cache');
      await step('the dispatch command names the saved brief and the chosen agent', async () => {
        await page.getByLabel('Agent').selectOption('codex');
        expect(await page.getByLabel('Dispatch command').innerText()).toBe(`relay -C ${root} handoff --resume ${saved![2]} --to codex`);
      });
      await screenshot(page, 'handoff-saved');
      await step('start it in a terminal: the fake terminal runs relay handoff --resume, which seeds codex with the brief', async () => {
        await page.getByRole('button', { name: 'Start in a terminal' }).click();
        await visible(page.getByRole('status').filter({ hasText: 'Started codex in x-terminal-emulator.' }));
        expect(await page.getByRole('button', { name: 'Copy command' }).isVisible()).toBe(true);
        await screenshot(page, 'handoff-started-in-terminal');
        const call = await until('the fake codex to be seeded', () => log.calls().find((c) => c.agent === 'codex' && lastArg(c).startsWith(HANDOFF_PREAMBLE)));
        expect(call.argv.slice(0, 3)).toEqual(['exec', '-C', root]);
        expect(lastArg(call)).toContain('Add the forecast cache');
        expect(lastArg(call)).toContain(`**Resumed from:** ${saved![2]}`);
        const started = JSON.parse(readFileSync(terminalRecord, 'utf8').split('\n')[0]!) as { argv: string[]; cwd: string };
        expect(started.cwd).toBe(root);
        expect(started.argv.slice(-6)).toEqual([root, 'handoff', '--resume', saved![2], '--to', 'codex']);
      });
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });

  it('withholds a brief holding a secret: the pattern is named, the text is not shown, saving is off', async () => {
    const root = await project('leaky');
    await recordPatch(root, { projectId: 'leaky', file: 'src/s.ts', body: 'export const s = 1;', message: 'chore: creds', prose: `Tested with ${FAKE_SECRETS['aws-access-key-id']} locally.` });
    const { page } = await openWindow('#/projects/leaky/handoff');

    await step('both validations refuse it and name the pattern', async () => {
      const saving = await visible(page.getByRole('region', { name: 'Saving' }));
      expect(await saving.innerText()).toContain('refused');
      expect(await saving.innerText()).toContain('SECRET_DETECTED');
      expect(await saving.innerText()).toContain('aws-access-key-id');
      expect(await page.getByRole('region', { name: 'Dispatching' }).innerText()).toContain('SECRET_DETECTED');
    });
    await step('the brief is not shown and cannot be saved', async () => {
      await visible(page.getByRole('alert').filter({ hasText: 'BRIEF_REFUSED' }));
      expect(await page.getByRole('button', { name: 'Save brief' }).isDisabled()).toBe(true);
      expect(await page.locator('main').innerText()).not.toContain(FAKE_SECRETS['aws-access-key-id']);
      await screenshot(page, 'handoff-secret');
    });
    expect(page.errors).toEqual([]);
    await page.close();
  });
});
