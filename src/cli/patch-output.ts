import type { Decision, PatchOutcome, PendingReview, Recovery } from '../engine/patch/transaction.js';
import type { FileStat } from '../engine/records/transaction-schema.js';
import { describeStats } from '../engine/patch/stats.js';
import { assertNever } from '../engine/result.js';
import { canAsk, confirm, print, printError } from './io.js';

/** The one result object `--json` prints for apply and revert. */
export function outcomeJson(outcome: PatchOutcome): Record<string, unknown> {
  const base = { status: outcome.status, uuid: outcome.uuid ?? null, recovered: outcome.recovered };
  switch (outcome.status) {
    case 'applied':
      return { ...base, files: outcome.files, rolledBack: outcome.rolledBack, approvedBy: outcome.approvedBy, warnings: outcome.warnings, branch: outcome.branch ?? null, linter: outcome.linter ?? null, error: null };
    case 'skipped':
      return { ...base, files: [], error: outcome.reason };
    case 'rejected':
      return { ...base, files: [], error: outcome.error };
    case 'rolled-back':
      return { ...base, files: outcome.files, error: outcome.error };
    default:
      return assertNever(outcome);
  }
}

function fileLine(f: FileStat): string {
  const mark = f.change === 'create' ? 'A' : f.change === 'delete' ? 'D' : 'M';
  return `  ${mark} ${f.path}  +${f.added}/-${f.removed}`;
}

/** Refused records already reported by this command: recovery runs before a command and again under its lock. */
const reportedRefusals = new Set<string>();

/** Says what recovery did: each rollback, and each record it refused (once per command). */
export function printRecoveries(recovered: readonly Recovery[]): void {
  for (const r of recovered) {
    if (r.refused) {
      const key = `${r.uuid}\u0000${r.refused.code}`;
      if (!reportedRefusals.has(key)) printError(`! ${r.refused.code}: ${r.refused.message}`);
      reportedRefusals.add(key);
    } else printError(`! An interrupted transaction (${r.uuid}) was found and rolled back: ${r.restored.length ? r.restored.join(', ') : 'no file needed restoring'}.`);
  }
}

/** Prints an outcome for people. */
export function printOutcome(outcome: PatchOutcome, verb = 'Applied', refusal = 'Not applied', log: (line: string) => void = print): void {
  printRecoveries(outcome.recovered);
  switch (outcome.status) {
    case 'applied':
      log(`✔ ${verb} ${outcome.uuid}: ${describeStats(outcome.files)}${outcome.approvedBy === 'auto' ? '' : ' (approved)'}`);
      outcome.files.forEach((f) => log(fileLine(f)));
      if (outcome.rolledBack.length > 0) log(`  rolled back at your request: ${outcome.rolledBack.join(', ')}`);
      if (outcome.branch) log(`  on new branch ${outcome.branch}`);
      for (const w of outcome.warnings) log(`  note: ${w}`);
      return;
    case 'skipped':
      log(`• Skipped: ${outcome.reason.message}`);
      return;
    case 'rejected':
      printError(`✘ ${refusal} (${outcome.error.code}): ${outcome.error.message}`);
      if (outcome.error.reply) printError(`\nReply for the assistant (relay apply --reply prints only this):\n\n${outcome.error.reply}`);
      return;
    case 'rolled-back':
      printError(`✘ Rolled back (${outcome.error.code}): ${outcome.error.message}`);
      return;
    default:
      assertNever(outcome);
  }
}

/**
 * The CLI's approval: --yes approves, a terminal asks, anything else refuses with the fix. --yes
 * approves files without anyone having seen them (`unseen`), so it never counts as approving code
 * the configured commands would run: such an answer is rolled back (REVIEW_REQUIRED), a revert is
 * kept without running the commands (see code-files.ts and transaction.ts).
 */
export function terminalDecider(yes: boolean): (review: PendingReview) => Promise<Decision> {
  return async (review) => {
    if (yes) return { approve: true, unseen: true };
    const why = review.reason === 'linter-errors' ? ' (the linter reports new errors)' : review.reason === 'executes-patched-code' ? ' (it changes files your configured commands run; none has run yet)' : '';
    print(`Patch ${review.uuid} is applied and waiting for approval${why}:`);
    review.files.forEach((f) => print(fileLine(f)));
    if (review.linter) print(`  linter: ${review.linter.errorsBefore} → ${review.linter.errorsAfter} errors (+${review.linter.added})`);
    for (const executed of review.executes ?? []) {
      print(`  runs as code: ${executed.path} — ${executed.why}`);
      const diff = review.files.find((f) => f.path === executed.path)?.diff;
      if (diff) print(diff.replace(/^/gm, '    '));
    }
    if (!canAsk()) {
      // --yes never approves code the configured commands would run: only a person can, here or in the app.
      const how = review.reason === 'executes-patched-code' ? 'run it again in a terminal to read the diff and approve it, or apply it in the app' : 're-run with --yes to approve';
      return { approve: false, reason: `manual approval is required and there is no terminal to ask; ${how}` };
    }
    const question = review.reason === 'executes-patched-code' ? 'Keep these changes and then run the postCommand and linter on them?' : 'Keep these changes?';
    const yesAnswer = await confirm(question);
    return yesAnswer ? { approve: true } : { approve: false, reason: 'you declined' };
  };
}

/**
 * `relay apply --reply`: the reply for the assistant alone on stdout (to pipe to the clipboard);
 * anything else (applied, skipped, a refusal without a reply) goes to stderr as usual.
 */
export function printReplyOnly(outcome: PatchOutcome): void {
  if (outcome.status === 'rejected' && outcome.error.reply) {
    print(outcome.error.reply);
    return;
  }
  printOutcome(outcome, undefined, undefined, printError);
}
