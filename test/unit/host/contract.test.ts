import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildRelayApi } from '../../../src/shared/api.js';
import { CHANNEL_NAMES, ipcChannel } from '../../../src/shared/channels.js';
import { contract, EventEnvelopeSchema } from '../../../src/shared/contract.js';
import { REPO_ROOT } from '../../helpers/cli.js';

describe('the IPC contract', () => {
  it('lists every channel once in the plain name list the preload and browser transport use', () => {
    expect([...CHANNEL_NAMES].sort()).toEqual(Object.keys(contract).sort());
    expect(new Set(CHANNEL_NAMES).size).toBe(CHANNEL_NAMES.length);
    expect(ipcChannel('listRuns')).toBe('relay:listRuns');
  });

  it('declares a zod input and output for every channel', () => {
    for (const [name, spec] of Object.entries(contract)) {
      expect(spec.input, name).toBeInstanceOf(z.ZodType);
      expect(spec.output, name).toBeInstanceOf(z.ZodType);
    }
  });

  it('refuses unknown keys in inputs rather than ignoring them', () => {
    expect(contract.applyPatch.input.safeParse({ text: 'x', source: 'paste', extra: 1 }).success).toBe(false);
    expect(contract.listRuns.input.parse({})).toEqual({ limit: 100 });
  });

  it('builds window.relay with one function per channel and onEvent', async () => {
    const calls: Array<[string, unknown]> = [];
    const api = buildRelayApi({
      invoke: async (channel, input) => {
        calls.push([channel, input]);
        return { ok: true, value: null };
      },
      subscribe: () => () => undefined,
    });
    expect(Object.keys(api).sort()).toEqual([...CHANNEL_NAMES, 'onEvent'].sort());
    await api.getRuntimeState({});
    await api.listRuns({ projectId: 'p' });
    expect(calls).toEqual([
      ['getRuntimeState', {}],
      ['listRuns', { projectId: 'p' }],
    ]);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('keeps src/shared renderer-safe: zod and relative imports only', () => {
    const dir = path.join(REPO_ROOT, 'src/shared');
    for (const name of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, name), 'utf8');
      const specifiers = [...source.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
      for (const specifier of specifiers) expect(specifier === 'zod' || specifier.startsWith('./'), `${name} imports ${specifier}`).toBe(true);
    }
  });

  it('keeps the modules the sandboxed preload loads free of runtime imports other than the channel list', () => {
    const api = readFileSync(path.join(REPO_ROOT, 'src/shared/api.ts'), 'utf8');
    const channels = readFileSync(path.join(REPO_ROOT, 'src/shared/channels.ts'), 'utf8');
    expect(api.match(/^import (?!type ).*$/gm)).toEqual(["import { CHANNEL_NAMES } from './channels.js';"]);
    expect(channels.match(/^import (?!type ).*$/gm)).toBeNull();
  });

  it('describes event envelopes with a positive seq', () => {
    expect(EventEnvelopeSchema.safeParse({ seq: 0, ts: 1, event: { type: 'lifecycle.stopped' } }).success).toBe(false);
    expect(EventEnvelopeSchema.safeParse({ seq: 1, ts: 1, event: { type: 'lifecycle.stopped' } }).success).toBe(true);
  });
});
