// `relay handoff` and `relay mcp`: argument parsing and printing over src/engine/handoff.
import type { Command } from 'commander';
import { checkBriefId } from '../engine/handoff/persist.js';
import { loadHandoffConfig, resolveDestination, type Destination } from '../engine/handoff/config.js';
import { dispatchHandoff, prepareHandoff, saveHandoff, waitForGapFill, type HandoffOutcome, type PreparedHandoff } from '../engine/handoff/service.js';
import type { ValidationIssue, ValidationReport } from '../engine/handoff/validate.js';
import { EXIT, print, printError, printJson, UsageError } from './io.js';
import { projectRoot } from './patch-commands.js';

interface HandoffOptions {
  readonly to?: string;
  readonly save?: boolean;
  readonly resume?: string;
  readonly force?: boolean;
  readonly waitGap?: string;
  readonly from?: string;
  readonly print?: boolean;
  readonly json?: boolean;
  readonly gitLog?: boolean;
}

/** The longest --wait-gap accepted, in seconds. */
const MAX_WAIT_GAP_SECONDS = 3_600;

function parseWaitGap(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !Number.isFinite(seconds) || seconds > MAX_WAIT_GAP_SECONDS) {
    throw new UsageError(`--wait-gap takes a number of seconds from 0 to ${MAX_WAIT_GAP_SECONDS}: ${JSON.stringify(raw)}`);
  }
  return seconds;
}

function issueJson(issue: ValidationIssue): Record<string, unknown> {
  return { code: issue.code, message: issue.message, pattern: issue.pattern ?? null, line: issue.line ?? null, section: issue.section ?? null };
}

function validationJson(report: ValidationReport | null): Record<string, unknown> | null {
  if (!report) return null;
  return { mode: report.mode, ok: report.ok, tokens: report.tokens, errors: report.errors.map(issueJson), warnings: report.warnings.map(issueJson) };
}

function gapJson(prepared: PreparedHandoff | null): Record<string, unknown> | null {
  if (!prepared) return null;
  const memory = prepared.brief.workingMemory;
  return {
    status: memory.status,
    reason: memory.status === 'missing' ? memory.reason : null,
    source: prepared.gapSource.kind,
    from: prepared.gapSource.kind === 'none' ? null : prepared.gapSource.briefId,
  };
}

function printIssues(report: ValidationReport | null): void {
  if (!report) return;
  for (const e of report.errors) printError(`  ✘ ${e.code}: ${e.message}`);
  for (const w of report.warnings) printError(`  ! ${w.code}: ${w.message}`);
}

function describeGap(prepared: PreparedHandoff): string {
  const memory = prepared.brief.workingMemory;
  if (memory.status === 'provided') return `working memory from ${memory.briefId} (captured ${memory.capturedAt})`;
  return `no working memory (${memory.reason}): placeholder rendered`;
}

/** Ends a failed step: human lines or one JSON object, exit 1. */
function reportFailure(outcome: Extract<HandoffOutcome<unknown>, { ok: false }>, prepared: PreparedHandoff | null, json: boolean): void {
  if (json) {
    printJson({
      status: outcome.error.code === 'BRIEF_REFUSED' ? 'refused' : 'failed',
      briefId: prepared?.brief.briefId ?? null,
      error: { code: outcome.error.code, message: outcome.error.message },
      validation: validationJson(outcome.validation),
      gapFill: gapJson(prepared),
    });
  } else {
    printError(`✘ ${outcome.error.code}: ${outcome.error.message}`);
    printIssues(outcome.validation);
  }
  process.exitCode = EXIT.failed;
}

/** Registers `relay handoff` and `relay mcp` on the relay program. */
export function registerHandoffCommands(program: Command): void {
  program
    .command('handoff')
    .description('write a brief of this project\'s recorded work so a session in another provider can continue')
    .option('--to <destination>', 'dispatch a new session seeded with the brief: claude, codex, or a profile of relay.handoff.json (STRICT validation; also saves)')
    .option('--save', 'write the brief under .relaycode/handoffs/ without dispatching (PERMISSIVE validation)')
    .option('--resume <briefId>', 'reuse the working memory of a saved brief ("latest" or an id) with a freshly rebuilt skeleton')
    .option('--force', 'dispatch even when the brief is over the hard token cap (never when it holds a secret)')
    .option('--wait-gap <seconds>', "wait up to this long for the departing agent's handoff_finalize before rendering the placeholder")
    .option('--from <provider>', 'the provider the work is leaving (shown in the brief)')
    .option('--print', 'also print the brief when saving or dispatching')
    .option('--no-git-log', 'do not read `git log --name-only` for Files touched (same records, same bytes)')
    .option('--json', 'print one JSON result object')
    .action(async (options: HandoffOptions) => {
      const root = projectRoot(program);
      const json = options.json === true;
      const waitSeconds = parseWaitGap(options.waitGap);
      if (options.resume !== undefined) {
        if (options.resume !== 'latest') {
          const id = checkBriefId(options.resume);
          if (!id.ok) throw new UsageError(`${id.error.code}: ${id.error.message}`);
        }
        if (options.waitGap !== undefined) throw new UsageError('--wait-gap waits for a new gap-fill; --resume reuses a saved one. Use one or the other.');
      }

      let destination: Destination | null = null;
      if (options.to !== undefined) {
        const config = loadHandoffConfig(root);
        if (!config.ok) {
          reportFailure({ ok: false, error: config.error, validation: null }, null, json);
          return;
        }
        const resolved = resolveDestination(options.to, config.value);
        if (!resolved.ok) throw new UsageError(`${resolved.error.code}: ${resolved.error.message}`);
        destination = resolved.value;
      }

      if (waitSeconds > 0) {
        if (!json) printError(`… waiting up to ${waitSeconds} s for the departing agent to call handoff_finalize`);
        const found = await waitForGapFill(root, { timeoutMs: waitSeconds * 1000 });
        if (!json) printError(found ? `  gap-fill ${found.briefId} arrived` : '  none arrived: the brief gets the [gap-fill not provided] placeholder');
      }

      const prepared = await prepareHandoff(root, {
        now: new Date(),
        fromProvider: options.from ?? null,
        toProvider: destination?.name ?? null,
        ...(options.resume !== undefined ? { resume: options.resume } : {}),
        gitLogEnabled: options.gitLog !== false,
      });
      if (!prepared.ok) {
        reportFailure(prepared, null, json);
        return;
      }
      const p = prepared.value;

      if (destination) {
        const dispatched = await dispatchHandoff(p, destination, {
          force: options.force === true,
          env: process.env,
          onStart: (saved, command) => {
            if (json) return;
            if (options.print) print(p.rendered.markdown);
            print(`✔ Brief ${saved.briefId} saved as ${saved.path} (~${saved.tokens} tokens; ${describeGap(p)}).`);
            for (const w of saved.warnings) printError(`  ! ${w}`);
            print(`→ Starting ${command.command} (${destination.adapter}${destination.via === 'profile' ? `, profile ${destination.name}` : ''}) seeded with the brief…`);
          },
        });
        if (!dispatched.ok) {
          reportFailure(dispatched, p, json);
          return;
        }
        const d = dispatched.value;
        if (json) {
          printJson({
            status: 'dispatched',
            briefId: d.briefId,
            path: d.path,
            gapPath: d.gapPath,
            tokens: d.tokens,
            resumedFrom: p.brief.resumedFrom,
            gapFill: gapJson(p),
            validation: validationJson(d.validation),
            destination: { name: d.destination, adapter: d.adapter, command: d.command },
            exitCode: d.exitCode,
            error: null,
          });
        } else print(`✔ ${d.command} finished.`);
        return;
      }

      if (options.save) {
        const saved = saveHandoff(p);
        if (!saved.ok) {
          reportFailure(saved, p, json);
          return;
        }
        const s = saved.value;
        if (json) {
          printJson({ status: 'saved', briefId: s.briefId, path: s.path, gapPath: s.gapPath, tokens: s.tokens, resumedFrom: p.brief.resumedFrom, gapFill: gapJson(p), validation: validationJson(s.validation), destination: null, error: null });
          return;
        }
        if (options.print) print(p.rendered.markdown);
        print(`✔ Brief ${s.briefId} saved as ${s.path} (~${s.tokens} tokens; ${describeGap(p)}).`);
        printIssues(p.permissive);
        print(`  Continue later with: relay handoff --resume ${s.briefId} --to <claude|codex|profile>`);
        return;
      }

      // Preview: nothing is written. A brief holding a secret is not printed either.
      if (!p.permissive.ok) {
        reportFailure({ ok: false, error: { code: 'BRIEF_REFUSED', message: 'The brief holds secret-looking text and is not shown.' }, validation: p.permissive }, p, json);
        return;
      }
      if (json) {
        printJson({ status: 'previewed', briefId: p.brief.briefId, path: null, tokens: p.rendered.tokens, resumedFrom: p.brief.resumedFrom, gapFill: gapJson(p), validation: validationJson(p.strict), markdown: p.rendered.markdown, error: null });
        return;
      }
      process.stdout.write(p.rendered.markdown);
      printError(`(preview of ${p.brief.briefId}, ~${p.rendered.tokens} tokens, ${describeGap(p)}; nothing written. --save writes it, --to <destination> sends it.)`);
      printIssues(p.strict);
    });

  program
    .command('mcp')
    .description('serve the handoff tools to an agent over MCP (stdio): handoff_finalize, recent_runs, last_tick_report, read_brief')
    .action(async () => {
      // stdout belongs to the protocol from here on: anything else printed would corrupt it.
      console.log = console.error;
      console.info = console.error;
      const { startMcpServer } = await import('./mcp-server.js');
      await startMcpServer(projectRoot(program));
    });
}
