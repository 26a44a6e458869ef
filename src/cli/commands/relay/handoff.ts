// `relay handoff`: a brief of the project's recorded work, previewed, saved or sent to a new session.
import type { Command } from 'commander';
import type { Destination } from '../../../engine/handoff/config.js';
import type { PreparedHandoff } from '../../../engine/handoff/service.js';
import { print, printError, printJson, UsageError, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';

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

/** `--to`: saves the brief and starts the destination seeded with it. */
async function dispatchBrief(p: PreparedHandoff, destination: Destination, options: HandoffOptions): Promise<void> {
  const { dispatchHandoff } = await import('../../../engine/handoff/service.js');
  const { describeGap, gapJson, reportFailure, validationJson } = await import('../../handoff-output.js');
  const json = options.json === true;
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
  if (!json) {
    print(`✔ ${d.command} finished.`);
    return;
  }
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
}

/** `--save`: writes the brief, dispatches nothing. */
async function saveBrief(p: PreparedHandoff, options: HandoffOptions): Promise<void> {
  const { saveHandoff } = await import('../../../engine/handoff/service.js');
  const { describeGap, gapJson, printIssues, reportFailure, validationJson } = await import('../../handoff-output.js');
  const saved = saveHandoff(p);
  if (!saved.ok) {
    reportFailure(saved, p, options.json === true);
    return;
  }
  const s = saved.value;
  if (options.json) {
    printJson({ status: 'saved', briefId: s.briefId, path: s.path, gapPath: s.gapPath, tokens: s.tokens, resumedFrom: p.brief.resumedFrom, gapFill: gapJson(p), validation: validationJson(s.validation), destination: null, error: null });
    return;
  }
  if (options.print) print(p.rendered.markdown);
  print(`✔ Brief ${s.briefId} saved as ${s.path} (~${s.tokens} tokens; ${describeGap(p)}).`);
  printIssues(p.permissive);
  print(`  Continue later with: relay handoff --resume ${s.briefId} --to <claude|codex|profile>`);
}

/** The default: prints the brief and writes nothing (a brief holding a secret is not printed either). */
async function previewBrief(p: PreparedHandoff, options: HandoffOptions): Promise<void> {
  const { describeGap, gapJson, printIssues, reportFailure, validationJson } = await import('../../handoff-output.js');
  const json = options.json === true;
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
}

/** Registers `relay handoff`. */
export function registerHandoff(program: Command): void {
  withHelp(
    program
      .command('handoff')
      .description("write a brief of this project's recorded work so a session in another provider can continue")
      .option('--to <destination>', 'dispatch a new session seeded with the brief: claude, codex, or a profile of relay.handoff.json (STRICT validation; also saves)')
      .option('--save', 'write the brief under .relaycode/handoffs/ without dispatching (PERMISSIVE validation)')
      .option('--resume <briefId>', 'reuse the working memory of a saved brief ("latest" or an id) with a freshly rebuilt skeleton')
      .option('--force', 'dispatch even when the brief is over the hard token cap (never when it holds a secret)')
      .option('--wait-gap <seconds>', "wait up to this long for the departing agent's handoff_finalize before rendering the placeholder")
      .option('--from <provider>', 'the provider the work is leaving (shown in the brief)')
      .option('--print', 'also print the brief when saving or dispatching')
      .option('--no-git-log', 'do not read `git log --name-only` for Files touched (same records, same bytes)')
      .option('--json', 'print one JSON result object'),
    {
      about: `Without --save or --to the brief is only previewed: nothing is written. Briefs are built from
the project's records (patch transactions, ticks, relay answers, git log); the departing agent's
working memory comes from the MCP tool handoff_finalize (\`relay mcp\`).`,
      examples: ['relay handoff', 'relay handoff --save', 'relay handoff --to codex', 'relay handoff --to claude --wait-gap 60', 'relay handoff --resume latest --to claude'],
      exitCodes: { 0: 'done', 1: 'refused (a secret, over the token cap) or the agent failed (the brief stays saved if it was written), or not in a project' },
    },
  ).action(async (options: HandoffOptions) => {
    const root = requireProject(program, { orRelais: true });
    const json = options.json === true;
    const waitSeconds = parseWaitGap(options.waitGap);
    if (options.resume !== undefined) {
      if (options.resume !== 'latest') {
        const { checkBriefId } = await import('../../../engine/handoff/persist.js');
        const id = checkBriefId(options.resume);
        if (!id.ok) throw new UsageError(`${id.error.code}: ${id.error.message}`);
      }
      if (options.waitGap !== undefined) throw new UsageError('--wait-gap waits for a new gap-fill; --resume reuses a saved one. Use one or the other.');
    }

    let destination: Destination | null = null;
    if (options.to !== undefined) {
      const { loadHandoffConfig, resolveDestination } = await import('../../../engine/handoff/config.js');
      const config = loadHandoffConfig(root);
      if (!config.ok) {
        const { reportFailure } = await import('../../handoff-output.js');
        reportFailure({ ok: false, error: config.error, validation: null }, null, json);
        return;
      }
      const resolved = resolveDestination(options.to, config.value);
      if (!resolved.ok) throw new UsageError(`${resolved.error.code}: ${resolved.error.message}`);
      destination = resolved.value;
    }

    const { prepareHandoff, waitForGapFill } = await import('../../../engine/handoff/service.js');
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
      const { reportFailure } = await import('../../handoff-output.js');
      reportFailure(prepared, null, json);
      return;
    }
    if (destination) await dispatchBrief(prepared.value, destination, options);
    else if (options.save) await saveBrief(prepared.value, options);
    else await previewBrief(prepared.value, options);
  });
}
