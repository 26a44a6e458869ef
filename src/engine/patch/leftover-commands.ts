// A pre/post command or linter started by a transaction can outlive the process that started
// it (a SIGKILL does not reach children). Left running, a formatter could write a file after
// recovery put it back. Every command a transaction runs carries RELAY_TRANSACTION=<uuid> in
// its environment, which its own children inherit; recovery stops whatever still carries it.
import { isRunning, processesMarked } from '../fs/process.js';

/** The environment variable that marks the processes of one transaction. */
export const TRANSACTION_MARK = 'RELAY_TRANSACTION';

/** The environment a transaction's commands get on top of the usual one. */
export function markedEnv(uuid: string): Readonly<Record<string, string>> {
  return { [TRANSACTION_MARK]: uuid };
}

/**
 * Kills the processes still marked with transaction `uuid` (Linux; elsewhere none are found)
 * and waits until they are gone. Returns their pids.
 */
export async function stopLeftoverCommands(uuid: string, timeoutMs = 5000): Promise<number[]> {
  const pids = processesMarked(TRANSACTION_MARK, uuid);
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
