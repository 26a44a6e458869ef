// `relay prompt`: the system prompt that teaches an assistant the answer format.
import path from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE } from '../../../engine/patch/names.js';
import { systemPrompt } from '../../../engine/patch/prompt.js';
import { print, printError, withHelp } from '../../io.js';
import { findProject, notAProjectMessage, startDir } from '../../project.js';
import { recoverFirst } from '../../recover.js';

/** Registers `relay prompt`. */
export function registerPrompt(program: Command): void {
  withHelp(program.command('prompt').description('print the system prompt that teaches an assistant the answer format'), {
    about: `Paste it into your assistant's custom instructions (or the start of a chat): it names this
project's id (from ${CONFIG_FILE}), which every answer must carry to be applied here.`,
    examples: ['relay prompt', 'relay prompt | pbcopy', 'relay -C ~/code/shop prompt'],
    exitCodes: { 0: `printed (outside a project, or when ${CONFIG_FILE} is invalid, with the folder name as the id and a note on stderr saying why)` },
  }).action(async () => {
    const start = startDir(program);
    const root = findProject(start);
    if (root === null) {
      printError(`note: ${notAProjectMessage(start)} Until then, this prompt uses the folder name as the project id.`);
      print(systemPrompt(path.basename(start)));
      return;
    }
    await recoverFirst(root);
    const { loadRelayConfig } = await import('../../../engine/patch/config.js');
    const config = loadRelayConfig(root);
    if (!config.ok) printError(`note: ${config.error.message} Using the folder name as projectId.`);
    print(systemPrompt(config.ok ? config.value.projectId : path.basename(root)));
  });
}
