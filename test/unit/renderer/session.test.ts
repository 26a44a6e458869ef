// The page's side of the launch link: the token is taken from the fragment and out of the address bar.
import { describe, expect, it } from 'vitest';
import { serverProof } from '../../../src/cli/ui-credentials.js';
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

  it('keeps the tab\'s session when a used link is opened in it again (once the server proved it knows it), and replaces it with a fresh trade', async () => {
    const OLD = 'o'.repeat(43);
    const NEW = 'n'.repeat(43);
    const kept = storage({ 'relay-desk.session': OLD });
    // The server: the trade says "used"; the hello is answered with `proofFor(nonce)`.
    const server = (proofFor: (nonce: string) => string): FetchLike => async (url, init) => {
      if (url.endsWith('/api/session')) return { status: 401, json: async () => ({ error: { code: 'LAUNCH_TOKEN_USED', message: '' } }) };
      const { pageNonce } = JSON.parse(init.body!) as { pageNonce: string };
      return { status: 200, json: async () => ({ proof: proofFor(pageNonce) }) };
    };
    expect(await startSession({ ...page('#token=t'), storage: kept, fetch: server((nonce) => serverProof(OLD, nonce)), base: '' })).toEqual({ session: OLD });
    // An answer that cannot prove it (another run, another program): a new link is needed, and the page connects to nothing.
    expect(await startSession({ ...page('#token=t'), storage: kept, fetch: server(() => 'P'.repeat(43)), base: '' })).toEqual({ session: null, reason: 'session-unknown' });
    expect(await startSession({ ...page('#token=t'), storage: kept, fetch: server((nonce) => serverProof(NEW, nonce)), base: '' })).toEqual({ session: null, reason: 'session-unknown' });
    expect(await startSession({ ...page('#token=t'), storage: kept, fetch: answering(200, { session: NEW }), base: '' })).toEqual({ session: NEW });
    expect(kept.map.get('relay-desk.session')).toBe(NEW);
  });
});
