// A describe block's chromium and the `relay ui` processes its tests start: the browser is
// launched before the tests, and after them it is closed and every process still running stopped.
import { afterAll, beforeAll } from 'vitest';
import { startRelayUi, type RelayUiProcess } from '../../helpers/ui.js';
import { launchBrowser, type TestBrowser } from './browser.js';

export interface UiRuns {
  /** The block's browser (launched in beforeAll). */
  browser(): TestBrowser;
  /** Starts `relay ui` (see startRelayUi), to be stopped after the block if it still runs. */
  start(options: Parameters<typeof startRelayUi>[0]): Promise<RelayUiProcess>;
}

export function uiRuns(): UiRuns {
  let browser: TestBrowser | undefined;
  const running: RelayUiProcess[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const ui of running) if (ui.child.exitCode === null) await ui.stop();
  });
  return {
    browser: () => browser!,
    start: async (options) => {
      const ui = await startRelayUi(options);
      running.push(ui);
      return ui;
    },
  };
}
