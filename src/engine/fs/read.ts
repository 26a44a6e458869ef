import { readInsideRoot } from './project-write.js';

/**
 * A project file's text, or null when it does not exist, cannot be read as a file, or is not
 * really inside the project (read through the path chokepoint: a link leading out is not followed).
 */
export function readTextOrNull(root: string, relative: string): string | null {
  return readInsideRoot(root, relative, { purpose: 'read' });
}
