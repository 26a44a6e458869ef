import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { tightenFile } from '../engine/store/paths.js';

/** Appends timestamped lines to <logs>/main.log (0600); never throws (logging must not take the app down). */
export function createLogger(logsDir: string): { info(message: string): void; error(message: string, error?: unknown): void } {
  const file = path.join(logsDir, 'main.log');
  let tightened = false;
  const write = (level: string, message: string): void => {
    try {
      // Logs can quote answers, which hold code and sometimes secrets: owner-only, like the database.
      mkdirSync(logsDir, { recursive: true, mode: 0o700 });
      appendFileSync(file, `${new Date().toISOString()} ${level} ${message}\n`, { mode: 0o600 });
      // A log an older build left readable by others is tightened once.
      if (!tightened) tightenFile(file);
      tightened = true;
    } catch {
      // The disk is full or the folder is gone: there is nowhere left to report it.
    }
  };
  return {
    info: (message) => write('INFO ', message),
    error: (message, error) => write('ERROR', `${message}${error ? `: ${(error as Error)?.stack ?? String(error)}` : ''}`),
  };
}
