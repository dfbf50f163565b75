/**
 * The gateway's size boundary at its exact edge: a message of MAX_MESSAGE_BYTES (16 KB of JSON, the ack
 * function aside) reaches the listeners, one byte more is answered 'Invalid request' there. Over real
 * sockets both answers read the same (a schema refuses what the boundary lets through), so the edge is
 * checked on the middleware itself (malformed.test.ts covers a message well over the limit end to end).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../shared/limits';
import { INVALID_REQUEST } from '../shared/protocol';
import { loadConfig } from './config';
import { type Admission, createAdmission } from './gateway-admission';
import { createLogger } from './logger';
import type { ChiplessSocket } from './socket-gateway';

let admission: Admission | undefined;
afterEach(() => admission?.close());

/** What the boundary did with one packet: passed it on, or answered it (and with what). */
function check(packet: unknown[]): { passed: boolean; answers: unknown[] } {
  admission ??= createAdmission(loadConfig({}), createLogger('silent'), () => 0);
  const socket = { data: { playerId: 'p1', ip: '127.0.0.1' } } as unknown as ChiplessSocket;
  let passed = false;
  const answers: unknown[] = [];
  admission.checkBoundary(socket, [...packet, (res: unknown) => answers.push(res)], () => {
    passed = true;
  });
  return { passed, answers };
}

/** A command message whose arguments' JSON (`[{…}]`) is exactly `bytes` long. */
function messageOf(bytes: number): unknown {
  const shell = JSON.stringify([{ commandId: 'c', pad: '' }]).length;
  const message = { commandId: 'c', pad: 'x'.repeat(bytes - shell) };
  expect(Buffer.byteLength(JSON.stringify([message]))).toBe(bytes);
  return message;
}

describe('the message size boundary', () => {
  it('is 16 KB', () => {
    expect(MAX_MESSAGE_BYTES).toBe(16 * 1024);
  });

  it('a message of exactly the limit passes to the listeners', () => {
    expect(check(['command', messageOf(MAX_MESSAGE_BYTES)])).toEqual({ passed: true, answers: [] });
  });

  it('one byte over is answered Invalid request and goes no further', () => {
    expect(check(['command', messageOf(MAX_MESSAGE_BYTES + 1)])).toEqual({
      passed: false,
      answers: [{ ok: false, error: INVALID_REQUEST }],
    });
  });

  it('bytes, not characters: a name in multi-byte letters counts each byte', () => {
    // 'é' is two bytes in UTF-8: 8,200 of them are under 16,384 characters but over 16 KB.
    const message = { commandId: 'c', name: 'é'.repeat(8_200) };
    expect(JSON.stringify([message]).length).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(check(['command', message]).passed).toBe(false);
  });

  it('an unknown event is answered Invalid request, whatever its size', () => {
    expect(check(['dropTables', {}])).toEqual({
      passed: false,
      answers: [{ ok: false, error: INVALID_REQUEST }],
    });
  });
});
