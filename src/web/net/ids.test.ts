import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId } from './ids';

afterEach(() => vi.unstubAllGlobals());

describe('newId', () => {
  it('makes RFC 4122 v4 ids, also without crypto.randomUUID (plain http on a LAN address)', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newId()).toMatch(v4);
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a.fill(7) });
    expect(newId()).toBe('07070707-0707-4707-8707-070707070707');
    vi.stubGlobal('crypto', undefined);
    const a = newId();
    expect(a).toMatch(v4);
    expect(newId()).not.toBe(a);
  });
});
