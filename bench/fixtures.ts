import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes files (path → content) under root, creating folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [file, content] of Object.entries(files)) {
    const absolute = path.join(root, file);
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
  }
}
