// How a page signs in to `relay ui` from the URL it prints: the URL carries a single-use launch
// token in its fragment, which the page's script trades for a session kept in sessionStorage.
// Tests that start `relay ui` (or `npm start`) as a process go through these two, so a change
// of the sign-in flow is made here once.
import type { Page } from 'playwright-core';
import { visible } from './pages.js';

/** The URL `relay ui` prints on its "running at" line (with `&project=<id>` when started in a project). */
export const PRINTED_UI_URL = /http:\/\/127\.\d+\.\d+\.\d+:\d+\/#token=[A-Za-z0-9_-]+(?:&project=\S+)?/;

/** Opens the printed URL in the page, signing in, and waits until the window's shell is shown. */
export async function signInWithPrintedUrl(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await visible(page.getByRole('navigation', { name: 'Relay Desk' }));
}
