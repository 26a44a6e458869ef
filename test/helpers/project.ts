import { randomUUID } from 'node:crypto';
import { defaultRelayConfig, writeRelayConfig, type RelayConfig } from '../../src/engine/patch/config.js';
import { gitRepo } from './temp.js';

/** A temp git repo with relay.config.json for `projectId` (patch settings merged in). */
export function relayProject(options: { projectId: string; files?: Readonly<Record<string, string>>; patch?: Partial<RelayConfig['patch']> }): string {
  const root = gitRepo(options.files ?? { 'README.md': '# demo\n' });
  const config = defaultRelayConfig(options.projectId);
  writeRelayConfig(root, { ...config, patch: { ...config.patch, ...options.patch } });
  return root;
}

/** An assistant answer in the relaycode format: one whole-file block per file, then the control block. */
export function answer(options: { projectId: string; files: Readonly<Record<string, string>>; message?: string; uuid?: string }): string {
  const blocks = Object.entries(options.files).map(([file, content]) => `\`\`\`text // ${file}\n${content.endsWith('\n') ? content : `${content}\n`}\`\`\``);
  const control = ['```yaml', `projectId: ${options.projectId}`, `uuid: ${options.uuid ?? randomUUID()}`, ...(options.message ? [`gitCommitMsg: "${options.message}"`] : []), '```'];
  return ['Here is the change.', ...blocks, control.join('\n')].join('\n\n');
}
