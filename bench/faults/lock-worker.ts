// One process of the lock stress check: takes the project lock `takes` times. While it holds
// the lock it creates an exclusive witness file (O_EXCL) holding its pid and removes it before
// releasing: a witness that already exists with a living pid in it means two holders at once.
// Prints one JSON line: { takes, doubleHolds, busy, staleWitnesses }.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { acquireProjectLock } from '../../src/engine/patch/lock.js';
import { isRunning } from '../../src/engine/fs/process.js';

const [root, witness, takesArg, holdArg] = process.argv.slice(2);
const takes = Number(takesArg);
const holdSpins = Number(holdArg ?? '200');
let taken = 0;
let doubleHolds = 0;
let busy = 0;
let staleWitnesses = 0;
const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

function enterWitness(): void {
  for (;;) {
    try {
      const fd = openSync(witness!, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let other = NaN;
      try {
        other = Number(readFileSync(witness!, 'utf8'));
      } catch {
        continue; // removed meanwhile
      }
      if (Number.isInteger(other) && other > 0 && isRunning(other)) {
        doubleHolds += 1; // someone else holds the lock right now, as we do
        process.stderr.write(`double hold: ${process.pid} and ${other}\n`);
        return;
      }
      // Left by a holder that was killed while holding: not a double hold.
      staleWitnesses += 1;
      rmSync(witness!, { force: true });
    }
  }
}

process.stdout.write('ready\n');
while (taken < takes) {
  const lock = acquireProjectLock(root!);
  if ('failed' in lock) throw new Error(lock.failed.message);
  if ('heldBy' in lock) {
    busy += 1;
    if (busy % 50 === 0) sleep(1);
    continue;
  }
  enterWitness();
  let x = 0;
  for (let i = 0; i < holdSpins; i += 1) x += Math.sqrt(i); // hold it for a moment
  if (x < 0) process.stdout.write('');
  try {
    if (Number(readFileSync(witness!, 'utf8')) === process.pid) rmSync(witness!, { force: true });
  } catch {
    // removed by someone else: counted by them
  }
  lock.release();
  taken += 1;
}
process.stdout.write(`${JSON.stringify({ takes: taken, doubleHolds, busy, staleWitnesses })}\n`);
