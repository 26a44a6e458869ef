// A pre/post command or linter started by a transaction can outlive the process that started
// it (a SIGKILL does not reach children). Left running, a formatter could write a file after
// recovery put it back. Every command a transaction runs carries RELAY_TRANSACTION=<mark> in
// its environment, which its own children inherit; recovery stops whatever still carries it.
// The mark is this run's alone (project, transaction, owner process and start): the same answer
// applied in another clone, or a transaction still running, is never touched.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isRunning, processesMarked, type ProcessOwner } from '../fs/process.js';

/** The environment variable that marks the processes of one transaction. */
export const TRANSACTION_MARK = 'RELAY_TRANSACTION';

/** The project folder as the file system names it (the app and the CLI may reach it through different links). */
function canonical(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/** The mark of one run of a transaction, from what its pending record holds. */
export function transactionMark(root: string, uuid: string, owner: Pick<ProcessOwner, 'pid' | 'bootId' | 'startedAt'>): string {
  return createHash('sha256').update(`${canonical(root)}\0${uuid}\0${owner.pid}\0${owner.bootId}\0${owner.startedAt}`).digest('hex').slice(0, 32);
}

/** The environment a transaction's commands get on top of the usual one. */
export function markedEnv(mark: string): Readonly<Record<string, string>> {
  return { [TRANSACTION_MARK]: mark };
}

/**
 * Kills the processes still carrying `mark` (Linux; elsewhere none are found) and waits until
 * they are gone. Returns their pids.
 */
export async function stopLeftoverCommands(mark: string, timeoutMs = 5000): Promise<number[]> {
  const pids = processesMarked(TRANSACTION_MARK, mark);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return pids;
}
