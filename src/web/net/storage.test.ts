import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from './storage';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('storage: what this browser keeps', () => {
  it('credentials: read back as written; anything else stored under their key is none', () => {
    storage.setCredentials({ playerId: 'p-1', token: 't' });
    expect(storage.credentials()).toEqual({ playerId: 'p-1', token: 't' });
    for (const junk of [
      '{"playerId":"p-1"}',
      '{"token":"t"}',
      '{"playerId":1,"token":"t"}',
      'null',
      '"p-1"',
      '7',
      '{',
    ]) {
      localStorage.setItem('chipless.credentials', junk);
      expect(storage.credentials(), junk).toBeNull();
    }
  });

  it('the last results: read back as written, cleared with null; a time that is not a number is none', () => {
    storage.setLastResults({ code: 'ABCDE', at: 5, departed: true });
    expect(storage.lastResults()).toEqual({ code: 'ABCDE', at: 5, departed: true });
    storage.setLastResults(null);
    expect(localStorage.getItem('chipless.lastResults')).toBeNull();
    localStorage.setItem('chipless.lastResults', '{"code":"ABCDE","at":"5"}');
    expect(storage.lastResults()).toBeNull();
  });

  it('storage refused (private mode): nothing read, nothing thrown', () => {
    const refuse = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    vi.stubGlobal('localStorage', { getItem: refuse, setItem: refuse, removeItem: refuse });
    expect(() => storage.setRoomCode('ABCDE')).not.toThrow();
    expect(storage.roomCode()).toBeNull();
    expect(storage.credentials()).toBeNull();
  });
});
