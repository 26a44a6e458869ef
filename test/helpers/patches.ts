import { randomUUID } from 'node:crypto';

/** Builds an assistant answer from file blocks and a control block. */
export function answer(blocks: ReadonlyArray<{ path: string; strategy?: string; body: string; lang?: string }>, control: { projectId?: string; uuid?: string; gitCommitMsg?: string } = {}): string {
  const parts = blocks.map((b) => `\`\`\`${b.lang ?? 'text'} // ${b.path}${b.strategy ? ` ${b.strategy}` : ''}\n${b.body}\n\`\`\``);
  const yaml = [`projectId: ${control.projectId ?? 'demo'}`, `uuid: ${control.uuid ?? randomUUID()}`, `gitCommitMsg: "${control.gitCommitMsg ?? 'test: change'}"`].join('\n');
  return `Here is the change.\n\n${parts.join('\n\n')}\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n`;
}

/** One SEARCH/REPLACE pair. */
export function searchReplace(search: string, replace: string): string {
  return `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
}
