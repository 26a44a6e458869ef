// The context an "Ask a friend" about a run sends along: what the run did, as text another
// agent can read. Capped at the relay's context limit (200,000 UTF-8 bytes) so the ask is
// never refused for size because of the context the window chose.
import type { RunDetail } from '../../shared/contract.js';
import { MAX_CONTEXT_FILE_BYTES as MAX_CONTEXT_BYTES } from '../../shared/facts.js';
import { assertNever } from './badges';

/** The relay engine's limit for context text: the same constant (src/shared/facts.ts). */
export { MAX_CONTEXT_BYTES };

const encoder = new TextEncoder();

/** UTF-8 size of `text`, as the relay measures it. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** `text` cut to at most `maxBytes` UTF-8 bytes on a character boundary, saying so at the end. */
export function capBytes(text: string, maxBytes: number): { readonly text: string; readonly cut: boolean } {
  if (utf8Bytes(text) <= maxBytes) return { text, cut: false };
  const note = '\n… (cut to fit the context limit)\n';
  const room = maxBytes - utf8Bytes(note);
  // Binary search the longest prefix that fits; never split a surrogate pair.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (utf8Bytes(text.slice(0, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end) + note, cut: true };
}

function section(title: string, body: string | null | undefined): string {
  return body && body.trim() !== '' ? `## ${title}\n\n${body.trim()}\n` : '';
}

/** The run as context text: header, then what its kind records. */
export function contextForRun(run: RunDetail): { readonly text: string; readonly cut: boolean } {
  const header = `# Relay Desk run: ${run.run.title}\n\nKind: ${run.run.kind} · status: ${run.run.status}${run.run.verdict ? ` · verdict: ${run.run.verdict}` : ''}${run.run.code ? ` · code: ${run.run.code}` : ''}\nProject: ${run.run.projectId} · started ${run.run.startedAt}\n`;
  const detail = run.detail;
  let body = '';
  if (detail) {
    switch (detail.kind) {
      case 'patch':
        body = [
          section('Commit message', detail.gitCommitMsg),
          section('Reasoning', detail.reasoning.join('\n')),
          section('Linter output', detail.linter?.output),
          section('Error', detail.error ? `${detail.error.code}: ${detail.error.message}` : null),
          section('Diff', detail.files.map((f) => f.diff).join('\n')),
        ].join('\n');
        break;
      case 'tick':
        body = [section('Report', detail.reportMarkdown), section('Diff', detail.diffPatch), section('Verification log', detail.verifyLog)].join('\n');
        break;
      case 'relay':
      case 'review':
        body = [section('Prompt', detail.prompt), section(`Answer from ${detail.backend ?? 'the agent'}`, detail.text)].join('\n');
        break;
      case 'handoff':
        body = section('Brief', detail.markdown);
        break;
      default:
        return assertNever(detail);
    }
  } else if (run.run.summary) {
    body = section('Summary', run.run.summary);
  }
  return capBytes(`${header}\n${body}`.trimEnd() + '\n', MAX_CONTEXT_BYTES);
}
