import path from 'node:path';
import { assertNever } from '../engine/result.js';
import type { ElectronPorts, MenuTemplateItem, TrayPort } from './ports.js';
import type { TrayAction, TrayMenuItem, TrayModel } from './tray-model.js';

/** A TrayModel's menu as Electron's menu template, each click reported as its TrayAction. */
export function toMenu(items: readonly TrayMenuItem[], act: (action: TrayAction) => void): MenuTemplateItem[] {
  return items.map((item): MenuTemplateItem => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'item':
        return { label: item.label, enabled: item.enabled ?? true, click: () => act(item.action) };
      case 'checkbox':
        return { label: item.label, type: 'checkbox', checked: item.checked, click: () => act(item.action) };
      case 'submenu':
        return { label: item.label, submenu: toMenu(item.items, act) };
      default:
        return assertNever(item);
    }
  });
}

/** The tray icon: shows a TrayModel, reports clicks as TrayActions. */
export class AppTray {
  private readonly tray: TrayPort;
  constructor(
    private readonly electron: Pick<ElectronPorts, 'Tray' | 'Menu'>,
    private readonly iconDir: string,
    private readonly act: (action: TrayAction) => void,
  ) {
    this.tray = new electron.Tray(this.image('idle'));
    this.tray.on('click', () => act({ kind: 'open-window' }));
  }

  private image(state: TrayModel['icon']): string {
    return path.join(this.iconDir, `${state}.png`);
  }

  /** Shows the model: icon, tooltip and menu. */
  show(model: TrayModel): void {
    this.tray.setImage(this.image(model.icon));
    this.tray.setToolTip(model.tooltip);
    this.tray.setContextMenu(this.electron.Menu.buildFromTemplate(toMenu(model.menu, this.act)));
  }

  /** Removes the icon (at quit). */
  destroy(): void {
    this.tray.destroy();
  }
}
