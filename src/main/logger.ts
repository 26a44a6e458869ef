import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { redactSecrets, secretValuesOf } from '../engine/secrets/index.js';
import { tightenFile } from '../engine/store/paths.js';

/**
 * Appends timestamped lines to <logs>/main.log (0600); never throws (logging must not take the app down).
 * Every line goes through engine/secrets first: an error can quote an answer, a command's output
 * or a URL with a password, and a log file outlives the moment. The values of this process's
 * secret-looking environment variables are withheld too (`env` is read once, here).
 */
export function createLogger(logsDir: string, env: Readonly<Record<string, string | undefined>> = process.env): { info(message: string): void; error(message: string, error?: unknown): void } {
  const file = path.join(logsDir, 'main.log');
  const knownValues = secretValuesOf(env);
  let tightened = false;
  const write = (level: string, message: string): void => {
    try {
      // Logs can quote answers, which hold code and sometimes secrets: owner-only, like the database.
      mkdirSync(logsDir, { recursive: true, mode: 0o700 });
      appendFileSync(file, `${new Date().toISOString()} ${level} ${redactSecrets(message, { knownValues })}\n`, { mode: 0o600 });
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
