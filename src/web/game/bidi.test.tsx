import { cleanup, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../engine/types';
import { RebuyModal } from '../screens/RebuyModal';
import { actNow, started, step } from '../test/rooms';
import { isolate, withIsolatedNames } from './bidi';
import { describeEvent } from './log-lines';
import { resultsText, standings } from './standings';

const FSI = '\u2068';
const PDI = '\u2069';
const ARABIC = 'محمد عبد الرحمن';
const HEBREW = 'אברהם בן דוד 12';

describe('isolate: a name inside a line of text', () => {
  it('wraps a name with right-to-left letters in a first-strong isolate; leaves the others as they are', () => {
    expect(isolate(ARABIC)).toBe(`${FSI}${ARABIC}${PDI}`);
    expect(isolate(HEBREW)).toBe(`${FSI}${HEBREW}${PDI}`);
    expect(isolate('Ana')).toBe('Ana');
    expect(isolate('李 ♥ 🂡')).toBe('李 ♥ 🂡');
    expect(isolate('Zoë 12')).toBe('Zoë 12');
  });
});

describe('the hand log with right-to-left names (the layout stress review of session 35)', () => {
  it("a split pot's line keeps each share beside its own name", () => {
    const award: GameEvent = {
      type: 'potAwarded',
      potId: 'main',
      amount: 4_001,
      winners: [
        { playerId: 'm', name: ARABIC, amount: 2_001 },
        { playerId: 'a', name: HEBREW, amount: 2_000 },
      ],
      reason: 'SHOWDOWN',
      message: null,
    };
    expect(describeEvent(award)).toBe(
      `Pot $40.01 to ${FSI}${ARABIC}${PDI} $20.01, ${FSI}${HEBREW}${PDI} $20.00`,
    );
  });

  it('every name field of an event is isolated: name, fromName, names, winners', () => {
    expect(withIsolatedNames({ type: 'rebuy', playerId: 'm', name: ARABIC, amount: 100 })).toEqual({
      type: 'rebuy',
      playerId: 'm',
      name: `${FSI}${ARABIC}${PDI}`,
      amount: 100,
    });
    expect(
      describeEvent({ type: 'seatsArranged', playerIds: ['m', 'a', 'b'], names: [ARABIC, HEBREW, 'Bob'] }),
    ).toBe(`Seats, clockwise: ${FSI}${ARABIC}${PDI}, ${FSI}${HEBREW}${PDI}, Bob`);
    const changed = withIsolatedNames({
      type: 'hostChanged',
      playerId: 'm',
      name: ARABIC,
      fromId: 'b',
      fromName: HEBREW,
    });
    expect([changed.name, changed.fromName]).toEqual([`${FSI}${ARABIC}${PDI}`, `${FSI}${HEBREW}${PDI}`]);
  });
});

describe('the results to send to the group chat, and the rebuy list', () => {
  it('the settlements and rankings keep each amount beside its own name', () => {
    // Ana wins Dov's stack; the game ends: Dov owes Ana $50.00.
    let room = started(['Ana', HEBREW], { chips: { Ana: 5_000, [HEBREW]: 5_000 } });
    room = actNow(room, 'ALL_IN');
    room = actNow(room, 'CALL');
    room = step(room, room.hostId, { type: 'declareWinners', winnerIds: [room.hostId] });
    room = step(room, room.hostId, { type: 'endGame' });
    const text = resultsText(room, standings(room));
    expect(text).toContain(`${FSI}${HEBREW}${PDI} owes Ana $50.00`);
  });

  it("the rebuy dialog's player list", () => {
    const room = started(['Ana', ARABIC]);
    render(<RebuyModal room={room} send={async () => ({ ok: true, data: null })} onClose={() => {}} />);
    const options = Array.from(
      (screen.getByRole('dialog', { name: 'Player Rebuy' }).querySelector('select') as HTMLSelectElement)
        .options,
    ).map((o) => o.textContent);
    expect(options).toContain(`${FSI}${ARABIC}${PDI} · $48.00`);
    cleanup();
  });
});
