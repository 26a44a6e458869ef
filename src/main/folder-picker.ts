// The desktop app's folder picker for "Add a project": Electron's dialog.showOpenDialog behind
// the host's FolderPicker interface. Both Electron pieces are passed in, so the function is
// tested with fakes and the shell wires the real ones.
import type { FolderPicker } from '../host/index.js';

/** The part of Electron's `dialog` this uses. */
export interface OpenDialogLike {
  showOpenDialog(window: object, options: FolderDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  showOpenDialog(options: FolderDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
}

interface FolderDialogOptions {
  title: string;
  properties: Array<'openDirectory' | 'createDirectory'>;
}

/** A FolderPicker over `dialog`, attached to the window `parent()` returns when there is one. */
export function electronFolderPicker(dialog: OpenDialogLike, parent: () => object | null): FolderPicker {
  return {
    async pick({ title }) {
      const options = { title, properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
      const window = parent();
      const chosen = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
    },
  };
}
