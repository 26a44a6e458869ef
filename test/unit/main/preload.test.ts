// The preload, run with a stand-in for `electron`: it exposes `relay` with one function per
// contract channel (each invoking relay:<name>) and an event subscription that unsubscribes.
import { describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES } from '../../../src/shared/channels.js';
import { contract } from '../../../src/shared/contract.js';
import type { RelayApi } from '../../../src/shared/api.js';

const fake = vi.hoisted(() => {
  const state = { exposed: new Map<string, unknown>(), invoked: [] as Array<[string, unknown]>, listeners: new Map<string, Array<(...a: unknown[]) => void>>() };
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void state.exposed.set(key, api) },
    ipcRenderer: {
      invoke: (channel: string, input: unknown) => {
        state.invoked.push([channel, input]);
        return Promise.resolve({ ok: true, value: channel });
      },
      on: (channel: string, fn: (...a: unknown[]) => void) => void state.listeners.set(channel, [...(state.listeners.get(channel) ?? []), fn]),
      removeListener: (channel: string, fn: (...a: unknown[]) => void) => void state.listeners.set(channel, (state.listeners.get(channel) ?? []).filter((f) => f !== fn)),
    },
  };
  return { state, electron };
});
vi.mock('electron', () => fake.electron);
await import('../../../src/preload/index.js');

describe('the preload', () => {
  it('keeps its channel list equal to the contract', () => {
    expect([...CHANNEL_NAMES].sort()).toEqual(Object.keys(contract).sort());
  });

  it('exposes one function per channel and nothing generic', async () => {
    const relay = fake.state.exposed.get('relay') as RelayApi & Record<string, unknown>;
    expect(Object.keys(relay).sort()).toEqual([...CHANNEL_NAMES, 'onEvent'].sort());
    expect(relay).not.toHaveProperty('invoke');
    expect(await relay.listProjects({})).toEqual({ ok: true, value: 'relay:listProjects' });
    expect(fake.state.invoked).toEqual([['relay:listProjects', {}]]);
  });

  it('subscribes to events and returns the unsubscribe', () => {
    const relay = fake.state.exposed.get('relay') as RelayApi;
    const seen: unknown[] = [];
    const stop = relay.onEvent((envelope) => void seen.push(envelope));
    for (const fn of fake.state.listeners.get('relay:event') ?? []) fn({}, { seq: 1 });
    stop();
    for (const fn of fake.state.listeners.get('relay:event') ?? []) fn({}, { seq: 2 });
    expect(seen).toEqual([{ seq: 1 }]);
  });
});
