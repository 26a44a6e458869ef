// The clipboard watcher's idle cost: what one poll of an unchanged clipboard costs (a read and
// a hash compare; nothing is parsed), and what that means at the default 500 ms interval.
// Electron's clipboard.readText() itself cannot run here; the fake source returns at once.
import { startClipboardWatcher } from '../src/engine/patch/watcher.js';

async function perPoll(text: string): Promise<number> {
  let polls = 0;
  const watcher = startClipboardWatcher({ source: { read: () => ((polls += 1), text) }, intervalMs: 0, onCandidate: async () => undefined });
  await watcher.ready;
  const cpuBefore = process.cpuUsage();
  const pollsBefore = polls;
  await new Promise((r) => setTimeout(r, 1000));
  const cpu = process.cpuUsage(cpuBefore);
  const done = polls - pollsBefore;
  await watcher.stop();
  return (cpu.user + cpu.system) / 1000 / Math.max(1, done);
}

export async function run(): Promise<void> {
  for (const [label, size] of [['1 KB', 1_000], ['100 KB', 100_000], ['2 MB (the size limit)', 2_000_000]] as const) {
    const ms = await perPoll('x'.repeat(size));
    const share = (ms / 500) * 100;
    console.log(`unchanged clipboard of ${label.padEnd(22)} ${ms.toFixed(3).padStart(8)} ms CPU per poll → ${share.toFixed(3)}% of one core at 500 ms`);
  }
}
