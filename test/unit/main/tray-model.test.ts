import { describe, expect, it } from 'vitest';
import { buildTrayModel, trayRunLabel, type TrayInput } from '../../../src/main/tray-model.js';
import { APP_ORIGIN, runPage } from '../../../src/main/renderer-assets.js';
import { href } from '../../../src/renderer/app/routes.js';

const base: TrayInput = { watching: false, pendingApprovals: [], unseenError: null, projects: [], recentRuns: [] };

describe('buildTrayModel', () => {
  it('shows idle, watching, error and waiting, the most urgent winning', () => {
    expect(buildTrayModel(base).icon).toBe('idle');
    expect(buildTrayModel({ ...base, watching: true }).icon).toBe('watching');
    expect(buildTrayModel({ ...base, watching: true, unseenError: { projectName: 'shop', message: 'boom' } }).icon).toBe('error');
    expect(buildTrayModel({ ...base, watching: true, unseenError: { projectName: 'shop', message: 'boom' }, pendingApprovals: [{ id: 'a1', projectName: 'shop' }] }).icon).toBe('waiting');
  });

  it('names the projects waiting for approval and offers to review each', () => {
    const model = buildTrayModel({ ...base, pendingApprovals: [{ id: 'a1', projectName: 'shop' }, { id: 'a2', projectName: 'blog' }] });
    expect(model.tooltip).toBe('Relay Desk — 2 patches waiting for approval (shop, blog)');
    expect(model.menu.slice(0, 2)).toEqual([
      { type: 'item', label: 'Review patch for shop…', action: { kind: 'open-approval', approvalId: 'a1' } },
      { type: 'item', label: 'Review patch for blog…', action: { kind: 'open-approval', approvalId: 'a2' } },
    ]);
  });

  it('has watch on/off, projects, recent runs, open window and quit', () => {
    const model = buildTrayModel({ ...base, watching: true, projects: [{ id: 'p1', name: 'shop', watching: true }], recentRuns: [{ id: 'r1', label: 'patch shop: 2 files' }] });
    const labels = model.menu.map((m) => ('label' in m ? m.label : '—'));
    expect(labels).toEqual(['Watch the clipboard', 'Projects', 'Recent runs', '—', 'Open Relay Desk', 'Quit']);
    expect(model.menu[0]).toMatchObject({ type: 'checkbox', checked: true });
    expect(model.menu[1]).toMatchObject({ items: [{ type: 'checkbox', label: 'shop', checked: true, action: { kind: 'toggle-project-watch', projectId: 'p1' } }] });
    expect(model.menu[2]).toMatchObject({ items: [{ label: 'patch shop: 2 files', action: { kind: 'open-run', runId: 'r1' } }] });
  });

  it('labels a run with its project, what ran and how it ended', () => {
    expect(trayRunLabel({ title: 'Tick', status: 'done', verdict: 'stop', code: 'STOP_SCOPE_VIOLATION' }, 'shop')).toBe('shop · Tick — STOP_SCOPE_VIOLATION');
    expect(trayRunLabel({ title: 'Patch', status: 'done', verdict: 'approved', code: null }, 'shop')).toBe('shop · Patch — approved');
    expect(trayRunLabel({ title: 'Ask codex', status: 'running', verdict: null, code: null }, 'shop')).toBe('shop · Ask codex — running');
    expect(trayRunLabel({ title: 'x'.repeat(100), status: 'done', verdict: null, code: null }, 'shop')).toHaveLength(72);
  });

  it('opens a run on the renderer’s own route for it', () => {
    expect(runPage(`${APP_ORIGIN}/index.html`, 'shop/tick/2026 01')).toBe(`app://relay-desk/index.html${href.run('shop/tick/2026 01')}`);
    expect(runPage('http://localhost:5173/#/settings', 'r1')).toBe('http://localhost:5173/#/runs/r1');
  });
});
