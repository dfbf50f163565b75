import { describe, expect, it } from 'vitest';
import * as engine from '../engine';
import { NAME_MAX_LENGTH as ENGINE_NAME_MAX_LENGTH } from '../engine/room';
import { NAME_MAX_LENGTH, STARTING_CHIPS_MAX_DOLLARS, STARTING_CHIPS_MIN_DOLLARS } from './limits';

// The engine imports nothing (not even src/shared), so it states the limits it enforces itself; the
// forms and the server read these. They must be the same numbers.
describe('limits shared with the engine', () => {
  it('the name length and the buy-in bounds are the engine’s', () => {
    expect(ENGINE_NAME_MAX_LENGTH).toBe(NAME_MAX_LENGTH);
    expect(engine.MIN_STARTING_CHIPS).toBe(STARTING_CHIPS_MIN_DOLLARS * 100);
    expect(engine.MAX_STARTING_CHIPS).toBe(STARTING_CHIPS_MAX_DOLLARS * 100);
  });
});
