import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** Appends timestamped lines to <logs>/main.log; never throws (logging must not take the app down). */
export function createLogger(logsDir: string): { info(message: string): void; error(message: string, error?: unknown): void } {
  const file = path.join(logsDir, 'main.log');
  const write = (level: string, message: string): void => {
    try {
      mkdirSync(logsDir, { recursive: true });
      appendFileSync(file, `${new Date().toISOString()} ${level} ${message}\n`);
    } catch {
      // The disk is full or the folder is gone: there is nowhere left to report it.
    }
  };
  return {
    info: (message) => write('INFO ', message),
    error: (message, error) => write('ERROR', `${message}${error ? `: ${(error as Error)?.stack ?? String(error)}` : ''}`),
  };
}
