import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchMe, hasSessionMarker } from './session';

const me = { id: 'u1', email: 'ada@lamella.test', name: 'Ada', surname: 'Lovelace', role: 'USER', permissions: [] };

function stubBrowser(cookie: string, answer: { status: number; body: unknown }) {
  const doc = { cookie };
  vi.stubGlobal('document', doc);
  const fetch = vi.fn(
    async () => new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return { doc, fetch };
}

afterEach(() => vi.unstubAllGlobals());

describe('the session probe (GET /users/me) only where the browser has a session', () => {
  it('reads the marker the server sets with the session cookie', () => {
    expect(hasSessionMarker('')).toBe(false);
    expect(hasSessionMarker('lng=de; cookie-consent=true')).toBe(false);
    expect(hasSessionMarker('lng=de; lamella_signed_in=1')).toBe(true);
    expect(hasSessionMarker('lamella_signed_in=1')).toBe(true);
    expect(hasSessionMarker('not_lamella_signed_in=1')).toBe(false);
  });

  it('a signed-out visitor: no call at all (its 401 was an error in the console), no session', async () => {
    const { fetch } = stubBrowser('lng=en', { status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'x' } });
    expect(await fetchMe()).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('with the marker: asks, and answers the user', async () => {
    const { fetch } = stubBrowser('lamella_signed_in=1', { status: 200, body: me });
    expect(await fetchMe()).toEqual(me);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toContain('/api/users/me');
  });

  it('an ended session (401): no session, and the marker goes so the next page does not ask again', async () => {
    const { doc } = stubBrowser('lamella_signed_in=1', { status: 401, body: { statusCode: 401, code: 'UNAUTHENTICATED', message: 'x' } });
    expect(await fetchMe()).toBeNull();
    expect(doc.cookie).toMatch(/^lamella_signed_in=; Max-Age=0; path=\/$/);
  });

  it('a session still owing its second factor (403): no session yet, the marker stays', async () => {
    const { doc } = stubBrowser('lamella_signed_in=1', { status: 403, body: { statusCode: 403, code: 'TWO_FACTOR_REQUIRED', message: 'x' } });
    expect(await fetchMe()).toBeNull();
    expect(doc.cookie).toBe('lamella_signed_in=1');
  });
});
