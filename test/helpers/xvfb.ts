import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';

/** A running display and how to stop it. */
export interface TestDisplay {
  readonly display: string;
  stop(): void;
}

/**
 * A private Xvfb server for one test (one that may be killed under a watcher). A missing Xvfb
 * is a failure with the fix, never a silent skip.
 */
export async function startPrivateDisplay(): Promise<TestDisplay> {
  try {
    execFileSync('which', ['Xvfb'], { stdio: 'ignore' });
  } catch {
    throw new Error('Xvfb is not installed; the clipboard tests need it. Install it with: apt-get install -y xvfb (npm test offers to).');
  }
  const server: ChildProcess = spawn('Xvfb', ['-displayfd', '1', '-nolisten', 'tcp', '-screen', '0', '640x480x24'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start within 10 s')), 10_000);
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /(\d+)\s*\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`:${m[1]}`);
      }
    });
    server.once('exit', (code) => reject(new Error(`Xvfb exited early (code ${code})`)));
  });
  return { display, stop: () => server.kill('SIGTERM') };
}

/** A display for clipboard tests: the current one if DISPLAY is set, otherwise a private Xvfb server. */
export async function startDisplay(): Promise<TestDisplay> {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: () => undefined };
  return startPrivateDisplay();
}
