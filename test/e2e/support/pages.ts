// Page objects for the Relay Desk window: each view's controls found the way a person finds
// them (roles, labels, visible text), so the tests read as what a person does and survive
// layout changes. Every wait is for a state, never a fixed sleep.
import type { Locator, Page } from 'playwright-core';
import type { UiServer } from '../../../src/cli/ui-server.js';

/** How long a state may take to appear on a busy two-core machine. */
export const STATE_TIMEOUT_MS = 20_000;

/** Polls `check` until it returns a non-undefined value (or throws its last error after `timeoutMs`). */
export async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = STATE_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Waits until the locator is visible and returns it. */
export async function visible(locator: Locator, timeout = STATE_TIMEOUT_MS): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

/** The whole window: opening it with the launch token, and the sidebar. */
export class DeskWindow {
  constructor(
    readonly page: Page,
    readonly server: UiServer,
  ) {}

  /** Opens a fresh launch link (the page trades its token for this tab's session) and waits for the app shell. */
  async open(hash = ''): Promise<void> {
    await this.page.goto(this.server.launchLink().url);
    await visible(this.page.getByRole('navigation', { name: 'Relay Desk' }));
    if (hash) await this.go(hash);
  }

  /** Navigates within the app (hash routes). */
  async go(hash: string): Promise<void> {
    // A string expression: this file is type-checked without DOM types.
    await this.page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
    await visible(this.page.locator('main h1'));
  }

  async nav(name: 'History' | 'Projects' | 'Paste answer' | 'Settings'): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Relay Desk' }).getByRole('link', { name, exact: true }).click();
    await visible(this.page.locator('main h1'));
  }

  /** The h1 of the current view. */
  heading(): Locator {
    return this.page.locator('main h1');
  }

  /** A notice (toast) with this title. */
  notice(title: string | RegExp): Locator {
    return this.page.getByRole('region', { name: 'Notifications' }).locator('li', { hasText: title });
  }
}

export class ProjectsPage {
  constructor(readonly desk: DeskWindow) {}

  get page(): Page {
    return this.desk.page;
  }

  async open(): Promise<void> {
    await this.desk.nav('Projects');
    await visible(this.page.getByRole('heading', { name: 'Add a project' }));
  }

  /** The line under the path field that says what the typed folder is. */
  folderCheck(): Locator {
    return this.page.locator('.folder-check');
  }

  /** Adds a folder through the form (its path is checked as typed first); returns the confirmation line. */
  async register(root: string): Promise<Locator> {
    await this.page.getByLabel('Project folder', { exact: true }).fill(root);
    await visible(this.folderCheck().locator('.text-success'));
    await this.page.getByRole('button', { name: 'Add project', exact: true }).click();
    return visible(this.page.getByRole('status').filter({ hasText: 'Added' }));
  }

  card(projectId: string): Locator {
    return this.page.locator(`section[data-project-id="${projectId}"]`);
  }

  async copySystemPrompt(projectId: string): Promise<void> {
    const card = this.card(projectId);
    await card.getByRole('button', { name: 'Copy system prompt' }).click();
    await visible(card.getByRole('button', { name: /Copied/ }));
  }

  /** Opens the Run tick confirmation of a project and waits until it has its figures. */
  async confirmTick(projectId: string): Promise<Locator> {
    await this.card(projectId).getByRole('button', { name: 'Run tick…' }).click();
    const dialog = await visible(this.page.getByRole('dialog', { name: /^Run a tick in/ }));
    await visible(dialog.locator('dl.spend'));
    return dialog;
  }

  /** Run tick → the confirmation → Start tick; returns the card's task status. */
  async runTick(projectId: string): Promise<Locator> {
    const dialog = await this.confirmTick(projectId);
    await dialog.getByRole('button', { name: 'Start tick' }).click();
    await dialog.waitFor({ state: 'detached', timeout: STATE_TIMEOUT_MS });
    return this.card(projectId).locator('.task-status');
  }

  async openSettings(projectId: string): Promise<Locator> {
    const card = this.card(projectId);
    const details = card.locator('details.settings');
    if (!(await details.evaluate((el) => (el as unknown as { open: boolean }).open))) await card.getByText('Settings', { exact: true }).click();
    return details;
  }
}

export class PastePage {
  constructor(readonly desk: DeskWindow) {}

  get page(): Page {
    return this.desk.page;
  }

  async open(): Promise<void> {
    await this.desk.nav('Paste answer');
    await visible(this.page.getByLabel('Answer'));
  }

  /** Pastes an answer into the box and applies it. */
  async apply(text: string): Promise<void> {
    await this.page.getByLabel('Answer').fill(text);
    await this.page.getByRole('button', { name: /Apply answer/ }).click();
  }

  /** The area under the form: the refusal or the task's progress and outcome. */
  result(): Locator {
    return this.page.getByRole('region', { name: 'Result' });
  }

  /** Waits for the task's outcome line (or failure box) and returns its text. */
  async outcome(): Promise<string> {
    const result = this.result();
    const done = result.locator('.task-status[data-task-state="completed"], .task-status[data-task-state="failed"]');
    await visible(done);
    return done.innerText();
  }
}

export class ApprovalDialogPage {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
  }

  async waitOpen(): Promise<Locator> {
    await visible(this.dialog);
    return this.dialog;
  }

  async waitClosed(): Promise<void> {
    await this.dialog.waitFor({ state: 'detached', timeout: STATE_TIMEOUT_MS });
  }

  fileSections(): Locator {
    return this.dialog.locator('.approval-files > li');
  }

  keepBox(path: string): Locator {
    return this.dialog.getByRole('checkbox', { name: `Keep ${path}` });
  }

  approveButton(): Locator {
    return this.dialog.getByRole('button', { name: /^Approve/ });
  }

  rejectButton(): Locator {
    return this.dialog.getByRole('button', { name: /^Reject/ });
  }

  /** Waits until the buttons are armed (they ignore clicks for a moment after opening). */
  async armed(): Promise<void> {
    await until('the approval buttons to be armed', async () => ((await this.approveButton().isEnabled()) || (await this.rejectButton().isEnabled()) ? true : undefined));
  }
}

export class HistoryPage {
  constructor(readonly desk: DeskWindow) {}

  get page(): Page {
    return this.desk.page;
  }

  async open(filter: { project?: string; kind?: string; status?: string } = {}): Promise<void> {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>).toString();
    await this.desk.go(`#/history${query ? `?${query}` : ''}`);
  }

  list(): Locator {
    return this.page.getByRole('list', { name: 'Runs' });
  }

  rows(): Locator {
    return this.page.locator('a.run-row');
  }

  row(title: string | RegExp): Locator {
    return this.rows().filter({ hasText: title });
  }

  count(): Locator {
    return this.page.locator('.list-count');
  }

  async openRun(title: string | RegExp): Promise<void> {
    await (await visible(this.row(title))).first().click();
    await visible(this.page.locator('.run-header'));
  }
}

export class RunPage {
  constructor(readonly desk: DeskWindow) {}

  get page(): Page {
    return this.desk.page;
  }

  header(): Locator {
    return this.page.locator('.run-header');
  }

  state(): Locator {
    return this.page.getByRole('region', { name: 'State' });
  }

  /** A titled part of the run (a region named by its heading). */
  section(heading: string | RegExp): Locator {
    return this.page.getByRole('region', { name: heading, exact: true });
  }

  /** The run's sticky action bar. */
  actionBar(): Locator {
    return this.page.getByRole('region', { name: 'Actions' });
  }

  /** Chooses a tab of a tick page (Changes, Checks, REPORT.md). */
  async tab(name: string | RegExp): Promise<Locator> {
    await this.page.getByRole('tab', { name }).click();
    return visible(this.page.getByRole('tabpanel'));
  }

  async revert(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Revert…' }).click();
    await this.page.getByRole('group', { name: 'Confirm revert' }).getByRole('button', { name: 'Revert patch' }).click();
    const status = this.page.locator('.revert-status .task-status[data-task-state="completed"], .revert-status .task-status[data-task-state="failed"]');
    return visible(status);
  }
}
