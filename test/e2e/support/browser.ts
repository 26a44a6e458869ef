// Debian's chromium driven by playwright-core, one browser per test file with a fresh profile.
// A missing browser fails the run with the fix, never a silent skip.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const RENDERER_DIR = path.join(REPO_ROOT, 'out/renderer');
export const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'test-artifacts/screenshots');
/** Screenshots the README shows: taken by the browser tests on every run, so they stay current (committed). */
export const DOC_SCREENSHOTS_DIR = path.join(REPO_ROOT, 'docs/screenshots');

/** The flags the browser tests run chromium with (the profile folder is added by playwright as --user-data-dir). */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Throws with the fix when chromium or the built renderer is missing. */
export function requireBrowserSetup(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No chromium at ${CHROMIUM}: the browser tests need it. Install it (as root: apt-get install -y chromium) or point CHROMIUM_PATH at a Chromium binary.`);
  }
  if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` (npm test does it first).');
}

export interface TestBrowser {
  readonly context: BrowserContext;
  /** A fresh page whose uncaught errors and console errors are collected (and fail `expectNoPageErrors`). */
  newPage(): Promise<Page & { readonly errors: string[] }>;
  close(): Promise<void>;
}

/** Launches chromium headless with a fresh --user-data-dir (a temp folder). */
export async function launchBrowser(): Promise<TestBrowser> {
  requireBrowserSetup();
  const profile = tempDir('relay-chromium-');
  // --no-sandbox: the test machines run as root, where chromium's sandbox refuses to start.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1360, height: 900 } });
  // The persistent profile opens one blank page; tests use their own fresh pages.
  for (const page of context.pages()) await page.close();
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  return {
    context,
    async newPage() {
      const page = (await context.newPage()) as Page & { errors: string[] };
      page.errors = [];
      page.on('pageerror', (error) => page.errors.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') page.errors.push(`console: ${message.text()} (${message.location().url}:${message.location().lineNumber})`);
      });
      return page;
    },
    close: () => context.close(),
  };
}

/** Saves a screenshot of the page as docs/screenshots/<name>.png, for the README (overwritten on every run). */
export async function docScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(DOC_SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(DOC_SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Saves a screenshot of the page as test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string, options: { readonly fullPage?: boolean } = {}): Promise<string> {
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
  return file;
}
