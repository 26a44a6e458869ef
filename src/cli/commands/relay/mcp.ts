// `relay mcp`: the handoff tools, served to an agent over MCP on stdio.
import type { Command } from 'commander';
import { printError, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';

/** Registers `relay mcp`. */
export function registerMcp(program: Command): void {
  withHelp(program.command('mcp').description('serve the handoff tools to an agent over MCP (stdio): handoff_finalize, recent_runs, last_tick_report, read_brief'), {
    about: `An agent starts this itself, with its stdin and stdout as the protocol's pipes; register it once:
  claude mcp add relay -- relay mcp
  codex: [mcp_servers.relay] command = "relay", args = ["mcp"] in ~/.codex/config.toml
It serves the project it is started in, until the agent closes stdin.`,
    examples: ['claude mcp add relay -- relay mcp', 'relay -C ~/code/shop mcp'],
    exitCodes: { 0: 'the agent closed the connection', 1: 'not in a project' },
  }).action(async () => {
    const root = requireProject(program, { orRelais: true });
    // stdout belongs to the protocol from here on: anything else printed would corrupt it.
    console.log = console.error;
    console.info = console.error;
    if (process.stdin.isTTY) {
      printError(`relay mcp: serving the handoff tools of ${root} over MCP on stdin/stdout, waiting for an MCP client (an agent such as Claude Code or Codex starts this itself: \`claude mcp add relay -- relay mcp\`). Ctrl+D or Ctrl+C ends it.`);
    }
    const { startMcpServer } = await import('../../mcp-server.js');
    await startMcpServer(root);
  });
}
