// `relay apply -` reads the answer from a pipe that another program fills as it goes: the data
// is not all there when the read starts, and it may be large. (stdin is read as a stream: a
// synchronous read of fd 0 fails with EAGAIN when the pipe was left non-blocking by another
// process that shares it, which the fault harness ran into.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { relayProject } from '../../helpers/project.js';

function applyFromSlowPipe(root: string, answer: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'apply', '-', '--yes'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // Written in pieces, the first one only after the child has started reading.
    const bytes = Buffer.from(answer);
    const piece = 64 * 1024;
    let at = 0;
    const next = (): void => {
      if (at >= bytes.length) {
        child.stdin.end();
        return;
      }
      child.stdin.write(bytes.subarray(at, at + piece), () => setImmediate(next));
      at += piece;
    };
    setTimeout(next, 200);
  });
}

describe('relay apply - (standard input)', () => {
  it('reads a large answer from a pipe that is filled while it reads', async () => {
    const root = relayProject({ projectId: 'piped', files: { 'a.txt': 'old\n' } });
    const body = 'line of the new file\n'.repeat(50_000); // about 1 MB
    const run = await applyFromSlowPipe(root, `**a.txt**\n\n\`\`\`\n${body}\`\`\`\n`);
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe(body);
  });
});
