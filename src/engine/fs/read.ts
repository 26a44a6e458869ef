import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A project file's text, or null when it does not exist (or cannot be read as a file). */
export function readTextOrNull(root: string, relative: string): string | null {
  try {
    return readFileSync(path.join(root, relative), 'utf8');
  } catch {
    return null;
  }
}
