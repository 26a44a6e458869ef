import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * An id of the current boot: the kernel's boot_id on Linux, else the boot time to the minute.
 * A lock or pending record whose boot id differs was left by a machine that has restarted.
 */
export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    const bootMinute = Math.round((Date.now() - os.uptime() * 1000) / 60_000);
    return `boot-${bootMinute}`;
  }
}

/** When this machine booted (ms since the epoch): a file older than this was written on an earlier boot. */
export function bootTimeMs(): number {
  return Date.now() - os.uptime() * 1000;
}

/** True when a process with this pid exists (signal 0 probes without touching it). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who owns a lock or a pending record. */
export interface ProcessOwner {
  readonly pid: number;
  readonly bootId: string;
  readonly startedAt: string;
}

export function currentOwner(now: Date = new Date()): ProcessOwner {
  return { pid: process.pid, bootId: bootId(), startedAt: now.toISOString() };
}

/** An owner is gone when its process is dead (or a zombie) or the machine rebooted since. */
export function ownerIsGone(owner: Pick<ProcessOwner, 'pid' | 'bootId'>): boolean {
  return owner.bootId !== bootId() || !isRunning(owner.pid);
}

/**
 * Pids of the processes whose environment holds `name=value` (Linux: read from /proc; elsewhere
 * an empty list). Children inherit the environment, so marking a command's environment finds the
 * command and everything it started, even after the process that started it was killed.
 */
export function processesMarked(name: string, value: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`\0${name}=${value}\0`);
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`), Buffer.from([0])]);
      if (environ.includes(needle)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** True while `pid` runs and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
