/** What the tray shows: derived from the app's state, with no Electron in sight. */
import type { Run } from '../shared/contract.js';

export type TrayIcon = 'idle' | 'watching' | 'waiting' | 'error';

export interface TrayInput {
  readonly watching: boolean;
  /** Approvals waiting for the user, with the project each belongs to. */
  readonly pendingApprovals: ReadonlyArray<{ readonly id: string; readonly projectName: string }>;
  /** The last failure the user has not looked at yet. */
  readonly unseenError: { readonly projectName: string; readonly message: string } | null;
  readonly projects: ReadonlyArray<{ readonly id: string; readonly name: string; readonly watching: boolean }>;
  readonly recentRuns: ReadonlyArray<{ readonly id: string; readonly label: string }>;
}

/** A menu entry; `action` names what main does when it is clicked. */
export type TrayMenuItem =
  | { readonly type: 'item'; readonly label: string; readonly action: TrayAction; readonly enabled?: boolean }
  | { readonly type: 'checkbox'; readonly label: string; readonly checked: boolean; readonly action: TrayAction }
  | { readonly type: 'submenu'; readonly label: string; readonly items: readonly TrayMenuItem[] }
  | { readonly type: 'separator' };

export type TrayAction =
  | { readonly kind: 'toggle-watch' }
  | { readonly kind: 'toggle-project-watch'; readonly projectId: string }
  | { readonly kind: 'open-window' }
  | { readonly kind: 'open-approval'; readonly approvalId: string }
  | { readonly kind: 'open-run'; readonly runId: string }
  | { readonly kind: 'quit' };

export interface TrayModel {
  readonly icon: TrayIcon;
  readonly tooltip: string;
  readonly menu: readonly TrayMenuItem[];
}

/** Waiting approvals win over errors, errors over watching: the icon shows what needs the user most. */
export function trayIcon(input: TrayInput): TrayIcon {
  if (input.pendingApprovals.length > 0) return 'waiting';
  if (input.unseenError) return 'error';
  return input.watching ? 'watching' : 'idle';
}

/** Builds the tray's icon, tooltip and menu. */
export function buildTrayModel(input: TrayInput): TrayModel {
  const icon = trayIcon(input);
  const waiting = input.pendingApprovals;
  const tooltip =
    icon === 'waiting'
      ? `Relay Desk — ${waiting.length} patch${waiting.length === 1 ? '' : 'es'} waiting for approval (${[...new Set(waiting.map((w) => w.projectName))].join(', ')})`
      : icon === 'error'
        ? `Relay Desk — ${input.unseenError!.projectName}: ${input.unseenError!.message}`.slice(0, 120)
        : input.watching
          ? 'Relay Desk — watching the clipboard'
          : 'Relay Desk — not watching';
  const menu: TrayMenuItem[] = [];
  for (const approval of waiting) menu.push({ type: 'item', label: `Review patch for ${approval.projectName}…`, action: { kind: 'open-approval', approvalId: approval.id } });
  if (waiting.length > 0) menu.push({ type: 'separator' });
  menu.push({ type: 'checkbox', label: 'Watch the clipboard', checked: input.watching, action: { kind: 'toggle-watch' } });
  menu.push({
    type: 'submenu',
    label: 'Projects',
    items:
      input.projects.length === 0
        ? [{ type: 'item', label: 'No projects yet — add one in the window', action: { kind: 'open-window' }, enabled: true }]
        : input.projects.map((p) => ({ type: 'checkbox' as const, label: p.name, checked: p.watching, action: { kind: 'toggle-project-watch' as const, projectId: p.id } })),
  });
  menu.push({
    type: 'submenu',
    label: 'Recent runs',
    items: input.recentRuns.length === 0 ? [{ type: 'item', label: 'Nothing yet', action: { kind: 'open-window' }, enabled: false }] : input.recentRuns.slice(0, 8).map((r) => ({ type: 'item' as const, label: r.label, action: { kind: 'open-run' as const, runId: r.id } })),
  });
  menu.push({ type: 'separator' });
  menu.push({ type: 'item', label: 'Open Relay Desk', action: { kind: 'open-window' } });
  menu.push({ type: 'item', label: 'Quit', action: { kind: 'quit' } });
  return { icon, tooltip, menu };
}

/** How many runs the tray lists. */
export const TRAY_RUNS = 8;

/** A run as the tray lists it: project, what ran, and how it ended (code, verdict or status). */
export function trayRunLabel(run: Pick<Run, 'title' | 'status' | 'verdict' | 'code'>, projectName: string): string {
  const label = `${projectName} · ${run.title} — ${run.code ?? run.verdict ?? run.status}`;
  return label.length > 72 ? `${label.slice(0, 71)}…` : label;
}
