import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** True when `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable `name` on a PATH string, or null. Relative PATH entries are skipped (they
 * would depend on the current folder); on Windows the usual executable extensions are tried.
 */
export function findOnPath(name: string, searchPath: string, platform: NodeJS.Platform = process.platform): string | null {
  const windows = platform === 'win32';
  const extensions = windows ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const dir of searchPath.split(windows ? ';' : ':')) {
    if (!dir || !(windows ? path.win32.isAbsolute(dir) : path.posix.isAbsolute(dir))) continue;
    for (const ext of extensions) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}
