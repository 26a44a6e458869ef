import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/engine/relay/envelope.js';

const HEAD = [
  'You are helping another coding agent by reviewing or advising on work in a local repository.',
  'Repository path: /work/repo',
  'Use the repository files for context when needed.',
  'Respond with concise, actionable feedback.',
  '',
  'Request:',
].join('\n');

describe('buildPrompt()', () => {
  it('writes the fixed lines byte for byte, then the trimmed request', () => {
    expect(buildPrompt({ prompt: '  Is this safe?\n', repoPath: '/work/repo', contextText: '', diffText: '' })).toBe(`${HEAD}\nIs this safe?`);
  });

  it('adds "Additional Context:" and "Git Diff:" sections, each after a blank line, in that order', () => {
    const prompt = buildPrompt({ prompt: 'Review', repoPath: '/work/repo', contextText: 'ctx line', diffText: 'diff --git a/x b/x' });
    expect(prompt).toBe(`${HEAD}\nReview\n\nAdditional Context:\nctx line\n\nGit Diff:\ndiff --git a/x b/x`);
  });

  it('leaves out empty sections', () => {
    expect(buildPrompt({ prompt: 'Q', repoPath: '/work/repo', contextText: '', diffText: 'D' })).toBe(`${HEAD}\nQ\n\nGit Diff:\nD`);
    expect(buildPrompt({ prompt: 'Q', repoPath: '/work/repo', contextText: 'C', diffText: '' })).toBe(`${HEAD}\nQ\n\nAdditional Context:\nC`);
  });

  it('has no trailing newline and keeps multibyte text intact', () => {
    const prompt = buildPrompt({ prompt: 'Prüfe das ✓', repoPath: '/work/repo', contextText: '', diffText: '' });
    expect(prompt.endsWith('Prüfe das ✓')).toBe(true);
  });
});
