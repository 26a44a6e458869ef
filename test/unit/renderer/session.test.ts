// The page's side of the launch link: the token is taken from the fragment and out of the address bar.
import { describe, expect, it } from 'vitest';
import { startSession, takeLaunchToken, type FetchLike } from '../../../src/renderer/transport/session.js';

function page(hash: string) {
  const replaced: string[] = [];
  return { location: { hash, pathname: '/', search: '' }, history: { replaceState: (_d: unknown, _u: string, url: string) => void replaced.push(url) }, replaced };
}

describe('takeLaunchToken', () => {
  it('takes #token=… and removes it from the address bar and history', () => {
    const p = page('#token=abc_DEF-123');
    expect(takeLaunchToken(p.location, p.history)).toBe('abc_DEF-123');
    expect(p.replaced).toEqual(['/']);
  });

  it('opens on the project a link names (`relay ui` started in a project), with the token gone', () => {
    const p = page('#token=abc&project=my%20shop');
    expect(takeLaunchToken(p.location, p.history)).toBe('abc');
    expect(p.replaced).toEqual(['/#/history?project=my+shop']);
  });

  it('leaves hash routes and empty fragments alone', () => {
    for (const hash of ['', '#', '#/runs/x', '#/projects?token=abc', '#tokens=abc']) {
      const p = page(hash);
      expect(takeLaunchToken(p.location, p.history), hash).toBeNull();
      expect(p.replaced, hash).toEqual([]);
    }
  });
});

describe('startSession', () => {
  const storage = (initial: Record<string, string> = {}) => {
    const map = new Map(Object.entries(initial));
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
  };
  const answering = (status: number, body: unknown): FetchLike => async () => ({ status, json: async () => body });

  it('says why there is no session: no link, a used one, an expired one, an unreachable server', async () => {
    expect(await startSession({ ...page(''), storage: storage(), fetch: answering(500, null), base: 'http://127.0.0.1:1' })).toEqual({ session: null, reason: 'no-session' });
    expect(await startSession({ ...page('#token=t'), storage: storage(), fetch: answering(401, { error: { code: 'LAUNCH_TOKEN_USED', message: '' } }), base: '' })).toEqual({ session: null, reason: 'link-used' });
    expect(await startSession({ ...page('#token=t'), storage: storage(), fetch: answering(401, { error: { code: 'LAUNCH_TOKEN_EXPIRED', message: '' } }), base: '' })).toEqual({ session: null, reason: 'link-expired' });
    const down: FetchLike = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await startSession({ ...page('#token=t'), storage: storage(), fetch: down, base: '' })).toEqual({ session: null, reason: 'lost' });
  });

  it('keeps the tab\'s session when a used link is opened in it again, and replaces it with a fresh trade', async () => {
    const kept = storage({ 'relay-desk.session': 'old' });
    expect(await startSession({ ...page('#token=t'), storage: kept, fetch: answering(401, { error: { code: 'LAUNCH_TOKEN_USED', message: '' } }), base: '' })).toEqual({ session: 'old' });
    expect(await startSession({ ...page('#token=t'), storage: kept, fetch: answering(200, { session: 'new' }), base: '' })).toEqual({ session: 'new' });
    expect(kept.map.get('relay-desk.session')).toBe('new');
  });
});
