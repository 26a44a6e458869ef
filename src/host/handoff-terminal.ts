// The window's "Start in a terminal": checks the project, the saved brief and the destination,
// then opens the user's terminal running `relay handoff --resume <briefId> --to <target>` there.
// The CLI does the dispatch (save, STRICT validation, the agent's argv); nothing is run here.
import type { ChannelArgs, ChannelOutput } from '../shared/contract.js';
import { loadHandoffConfig, resolveDestination, resolveBriefRef } from '../engine/handoff/index.js';
import { currentRelayInvocation, startDispatchInTerminal, type RelayInvocation } from '../engine/handoff/terminal.js';
import { fail, type Result } from '../engine/result.js';
import type { Store } from '../engine/store/index.js';

/** Where the terminal runs and with what: the host's composition root decides (the app widens PATH). */
export interface TerminalSettings {
  /** The environment the terminal, relay and the agent get (its PATH is searched for terminals). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly relay: RelayInvocation;
  readonly platform: NodeJS.Platform;
}

/** Settings from this process: its environment, binary and platform. */
export function defaultTerminalSettings(overrides: Partial<TerminalSettings> = {}): TerminalSettings {
  return { env: overrides.env ?? process.env, relay: overrides.relay ?? currentRelayInvocation(), platform: overrides.platform ?? process.platform };
}

/** Handles startHandoffInTerminal. */
export async function startHandoffInTerminal(deps: { readonly store: Store; readonly terminal: TerminalSettings }, args: ChannelArgs<'startHandoffInTerminal'>): Promise<Result<ChannelOutput<'startHandoffInTerminal'>>> {
  const project = deps.store.projects.get(args.projectId);
  if (!project) return fail('UNKNOWN_PROJECT', `No project "${args.projectId}" is registered.`);
  const brief = resolveBriefRef(project.root, args.briefId);
  if (!brief.ok) return brief;
  const config = loadHandoffConfig(project.root);
  if (!config.ok) return config;
  const destination = resolveDestination(args.target, config.value);
  if (!destination.ok) return destination;
  return startDispatchInTerminal({ root: project.root, briefId: brief.value, target: args.target }, deps.terminal);
}
