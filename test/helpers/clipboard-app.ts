// The desktop app's clipboard path without Electron: real projects registered in a real store
// through the host, the real clipboard router (src/main/router.ts) reading an injected,
// event-driven clipboard source, and the notifications the app would show for every event.
import path from 'node:path';
import { defaultRelayConfig, writeRelayConfig } from '../../src/engine/patch/config.js';
import { openStore, type Store } from '../../src/engine/store/index.js';
import type { ClipboardListener } from '../../src/engine/patch/watcher.js';
import { createHost, type Host } from '../../src/host/index.js';
import { notificationFor, type NotificationModel } from '../../src/main/notifications.js';
import { startClipboardRouter } from '../../src/main/router.js';
import type { IpcReply } from '../../src/shared/contract.js';
import type { EventEnvelope } from '../../src/shared/events.js';
import { gitRepo, tempDir } from './temp.js';

/** Polls `check` until it holds, or fails after `ms` saying what was awaited. */
export async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface ClipboardApp {
  readonly host: Host;
  readonly store: Store;
  /** Project id → root. */
  readonly roots: Readonly<Record<string, string>>;
  /** Every runtime event since start. */
  readonly events: EventEnvelope[];
  /** The notifications the app would have shown, in order. */
  readonly notifications: NotificationModel[];
  /** applyPatch replies for the texts the watcher handed on. */
  readonly replies: Array<IpcReply<unknown>>;
  /** Texts the watcher dropped before parsing. */
  readonly ignored: number;
  /** Puts text on the clipboard and waits until the router has handled it (dropped it, or had the host's reply). */
  copy(text: string): Promise<IpcReply<unknown> | null>;
  close(): Promise<void>;
}

/**
 * Registers one project per entry (a git repo with relay.config.json), approval policy `auto`,
 * and starts the clipboard router over a fake clipboard the test writes.
 */
export async function startClipboardApp(projects: Readonly<Record<string, { files?: Readonly<Record<string, string>>; fromDir?: string; watching?: boolean }>>): Promise<ClipboardApp> {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store });
  const roots: Record<string, string> = {};
  for (const [projectId, spec] of Object.entries(projects)) {
    const root = spec.fromDir ? gitRepo({ fromDir: spec.fromDir }) : gitRepo(spec.files ?? { 'README.md': `# ${projectId}\n` });
    writeRelayConfig(root, defaultRelayConfig(projectId));
    const registered = await host.call('registerProject', { root });
    if (!registered.ok) throw new Error(`cannot register ${projectId}: ${registered.error.message}`);
    await host.call('updateProjectSettings', { projectId, approvalPolicy: { mode: 'auto' }, ...(spec.watching === false ? { watching: false } : {}) });
    roots[projectId] = root;
  }
  const events: EventEnvelope[] = [];
  const notifications: NotificationModel[] = [];
  host.subscribe((envelope) => {
    events.push(envelope);
    const model = notificationFor(envelope, (id) => id);
    if (model) notifications.push(model);
  }, host.runtime.lastSeq);

  let text = 'copied before the app started';
  let listener: ClipboardListener | null = null;
  let handled = 0;
  let ignored = 0;
  const replies: Array<IpcReply<unknown>> = [];
  const router = startClipboardRouter({
    source: {
      read: () => text,
      subscribe: (l) => {
        listener = l;
        return { close: () => undefined };
      },
    },
    intervalMs: 1_000_000,
    apply: async (candidate) => {
      const reply = await host.call('applyPatch', { text: candidate, source: 'clipboard' });
      replies.push(reply);
      handled += 1;
      return reply;
    },
    onIgnored: () => {
      ignored += 1;
      handled += 1;
    },
  });
  await router.ready;

  return {
    host,
    store,
    roots,
    events,
    notifications,
    replies,
    get ignored() {
      return ignored;
    },
    async copy(next) {
      const before = handled;
      const repliesBefore = replies.length;
      text = next;
      listener!.onChange();
      await until(() => handled > before, 'the clipboard router to handle the copy');
      return replies.length > repliesBefore ? replies[replies.length - 1]! : null;
    },
    async close() {
      await router.stop();
      await host.close();
      store.close();
    },
  };
}
