import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';

/**
 * A display for clipboard tests: the current one if DISPLAY is set, otherwise a private Xvfb
 * server started for the test. A missing Xvfb is a failure with the fix, never a silent skip.
 */
export async function startDisplay(): Promise<{ display: string; stop: () => void }> {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY, stop: () => undefined };
  try {
    execFileSync('which', ['Xvfb'], { stdio: 'ignore' });
  } catch {
    throw new Error('Xvfb is not installed; the clipboard tests need it. Install it with: apt-get install -y xvfb (.ci/run does this).');
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
