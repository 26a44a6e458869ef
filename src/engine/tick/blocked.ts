import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic.js';
import { BLOCKED_CODES, type BlockedCode } from './codes.js';

export const BlockedRecordSchema = z
  .object({
    verdict: z.literal('blocked'),
    code: z.enum(BLOCKED_CODES),
    run_id: z.string().nullable(),
    at: z.string(),
    reason: z.string(),
    remediation: z.string(),
    details: z.array(z.string()).default([]),
    /** For BLOCKED_LOCK_HELD: who holds the lock. */
    lock_holder: z
      .object({ pid: z.number().int(), started_at: z.string(), boot_id: z.string(), run_id: z.string().nullable() })
      .strict()
      .nullable()
      .default(null),
  })
  .strict();

/** BLOCKED.json: why a tick could not start (or could not go on) and exactly what to do about it. */
export type BlockedRecord = z.infer<typeof BlockedRecordSchema>;

/** A blocking finding before it is stamped with a time and written. */
export interface Blocker {
  readonly code: BlockedCode;
  readonly reason: string;
  readonly remediation: string;
  readonly details?: readonly string[];
  readonly lockHolder?: BlockedRecord['lock_holder'];
}

/** The record written to BLOCKED.json for `blocker`. */
export function blockedRecord(blocker: Blocker, runId: string | null, at: Date): BlockedRecord {
  return {
    verdict: 'blocked',
    code: blocker.code,
    run_id: runId,
    at: at.toISOString(),
    reason: blocker.reason,
    remediation: blocker.remediation,
    details: [...(blocker.details ?? [])].slice(0, 200),
    lock_holder: blocker.lockHolder ?? null,
  };
}

/** Writes BLOCKED.json atomically (once more if a concurrent cleanup took the temp file). */
export function writeBlocked(file: string, record: BlockedRecord): void {
  const text = `${JSON.stringify(record, null, 2)}\n`;
  try {
    writeFileAtomic(file, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    writeFileAtomic(file, text);
  }
}

/** Reads BLOCKED.json: null when absent, 'invalid' when it does not match its schema. */
export function readBlocked(file: string): BlockedRecord | null | 'invalid' {
  if (!existsSync(file)) return null;
  try {
    const parsed = BlockedRecordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : 'invalid';
  } catch {
    return 'invalid';
  }
}
