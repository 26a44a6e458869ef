import { Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import type { TrayAction, TrayMenuItem, TrayModel } from './tray-model.js';

function toMenu(items: readonly TrayMenuItem[], act: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'item':
        return { label: item.label, enabled: item.enabled ?? true, click: () => act(item.action) };
      case 'checkbox':
        return { label: item.label, type: 'checkbox', checked: item.checked, click: () => act(item.action) };
      case 'submenu':
        return { label: item.label, submenu: toMenu(item.items, act) };
    }
  });
}

/** The tray icon: shows a TrayModel, reports clicks as TrayActions. */
export class AppTray {
  private readonly tray: Tray;
  constructor(
    private readonly iconDir: string,
    private readonly act: (action: TrayAction) => void,
  ) {
    this.tray = new Tray(this.image('idle'));
    this.tray.on('click', () => act({ kind: 'open-window' }));
  }

  private image(state: TrayModel['icon']) {
    return nativeImage.createFromPath(path.join(this.iconDir, `${state}.png`));
  }

  show(model: TrayModel): void {
    this.tray.setImage(this.image(model.icon));
    this.tray.setToolTip(model.tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(toMenu(model.menu, this.act)));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
