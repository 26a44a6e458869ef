import { readFileSync } from 'node:fs';
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

/** An owner is gone when its process is dead or the machine rebooted since. */
export function ownerIsGone(owner: Pick<ProcessOwner, 'pid' | 'bootId'>): boolean {
  return owner.bootId !== bootId() || !isProcessAlive(owner.pid);
}
