import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Room } from '../../engine/types';
import { headline, signed, standings } from '../game/standings';
import { actNow, started, step } from '../test/rooms';
import { GameOver } from './GameOver';

afterEach(cleanup);

function rows(listName: string) {
  const section = screen.getByRole('heading', { name: listName }).closest('section')!;
  return within(section)
    .queryAllByRole('listitem')
    .map((li) => li.textContent);
}

describe('Game over screen', () => {
  it('names the player with the most chips, lists who owes whom and ranks by final chips', async () => {
    // Ana raises, Ben (SB) and Cal (BB) fold: Ana wins the $3.00 of blinds. Then the host ends the game.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    room = step(room, 'ana', { type: 'endGame' });
    const onHome = vi.fn();
    render(<GameOver room={room} me="ben" onHome={onHome} />);

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Ana Left em' all Chipless!");
    expect(rows('Settlements')).toEqual(['Cal owes Ana$2.00', 'Ben owes Ana$1.00']);
    expect(rows('Rankings')).toEqual([
      '1AnaWinnerFinal chips $53.00Net +$3.00',
      '2Ben(You)Final chips $49.00Net -$1.00',
      '3CalFinal chips $48.00Net -$2.00',
    ]);
    const [first, second] = screen.getAllByRole('listitem').filter((li) => li.classList.contains('ranking'));
    expect(first!.className).toBe('ranking top');
    expect(first!.querySelector('.net')!.className).toBe('net plus');
    expect(second!.querySelector('.net')!.className).toBe('net minus');
    expect(screen.getByText('Take a screenshot to keep the results.')).toBeTruthy();

    // Back to Home asks first, and says where the results are kept.
    fireEvent.click(screen.getByRole('button', { name: 'Back to Home' }));
    const ask = screen.getByRole('dialog', { name: 'Leave the results?' });
    expect(
      within(ask).getByText(
        'The home screen keeps them under "Last Game\'s Results" for 12 hours. Copy them or take a screenshot to keep them longer.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(onHome).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Home' }));
    await act(async () =>
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Leave the results?' })).getByRole('button', {
          name: 'Back to Home',
        }),
      ),
    );
    expect(onHome).toHaveBeenCalledTimes(1);
  });

  it('on a phone that took the seat by a link, Back to Home says the results go with the seat', () => {
    let room = started(['Ana', 'Ben']);
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ben" onHome={() => {}} byLink />);
    fireEvent.click(screen.getByRole('button', { name: 'Back to Home' }));
    const ask = screen.getByRole('dialog', { name: 'Leave the results?' });
    expect(ask.querySelector('.modal-text')?.textContent).toBe(
      'This phone held the seat for this game only: back home, it cannot show the results again. Copy them or take a screenshot to keep them.',
    );
  });

  it("calls a tie when the top stacks are equal, with 'No settlements needed.'", () => {
    let room = started(['Ana', 'Ben']);
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ana" onHome={() => {}} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("It's a Tie! Nobody left Chipless!");
    expect(screen.getByText('No settlements needed.')).toBeTruthy();
    expect(rows('Rankings')).toEqual([
      '1Ana(You)Final chips $50.00Net $0.00',
      '2BenFinal chips $50.00Net $0.00',
    ]);
  });

  it('keeps players who left during the game in the results and the settlements', () => {
    // Ana raises to $10, Cal calls, Ben folds; Cal then leaves with $40.00 behind ($10.00 stays in the pot).
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'RAISE', 1_000);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'CALL');
    room = step(room, 'cal', { type: 'leave' });
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ana" onHome={() => {}} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Ana Left em' all Chipless!");
    expect(rows('Rankings')).toEqual([
      '1AnaWinner(You)Final chips $61.00Net +$11.00',
      '2BenFinal chips $49.00Net -$1.00',
      '3Cal(left)Final chips $40.00Net -$10.00',
    ]);
    expect(rows('Settlements')).toEqual(['Cal owes Ana$10.00', 'Ben owes Ana$1.00']);
  });

  it('tells a Ben who left from a new ben in the settlements: "Ben (left) owes Ana"', () => {
    // Ben (SB) folds to Ana's raise and goes home down $1.00; a new phone joins as "ben" and is dealt in.
    // Cal (BB) folds too: Ana wins $3.00. The new ben never played a hand.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    room = step(room, 'ben', { type: 'leave' });
    room = step(room, 'ben2', { type: 'join', name: 'ben', startingChips: 5_000 });
    room = step(room, 'ana', { type: 'approve', playerId: 'ben2' });
    room = actNow(room, 'FOLD');
    room = step(room, 'ana', { type: 'rebuy', playerId: 'cal', amount: 10_000 });
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ana" onHome={() => {}} />);
    expect(rows('Settlements')).toEqual(['Cal owes Ana$2.00', 'Ben (left) owes Ana$1.00']);
    expect(rows('Rankings')).toEqual([
      '1CalFinal chips $148.00Net -$2.00',
      '2AnaWinner(You)Final chips $53.00Net +$3.00',
      '3benFinal chips $50.00Net $0.00',
      '4Ben(left)Final chips $49.00Net -$1.00',
    ]);
  });

  it('names a Bob who left and won as "Bob (left)" when a new Bob sits at the table', () => {
    // Ana (dealer) and Ben (SB) fold: Cal (BB) wins $1.00 and goes home; a new "Cal" joins and is seated.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    room = step(room, 'cal', { type: 'leave' });
    room = step(room, 'cal2', { type: 'join', name: 'Cal', startingChips: 5_000 });
    room = step(room, 'ana', { type: 'approve', playerId: 'cal2' });
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ana" onHome={() => {}} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Cal (left) Left em' all Chipless!");
    expect(rows('Settlements')).toEqual(['Ben owes Cal (left)$1.00']);
  });

  it('names the best net result, not a rebuyer who only matches the top stack (headline = highlight)', () => {
    // Ana wins the blinds ($53.00, net +$3.00); Cal (BB, $48.00) rebuys $5.00: $53.00 too, but net -$2.00.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    room = step(room, 'ana', { type: 'rebuy', playerId: 'cal', amount: 500 });
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ben" onHome={() => {}} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Ana Left em' all Chipless!");
    expect(rows('Rankings')).toEqual([
      '1AnaWinnerFinal chips $53.00Net +$3.00',
      '2CalFinal chips $53.00Net -$2.00',
      '3Ben(You)Final chips $49.00Net -$1.00',
    ]);
    const [first, second] = screen.getAllByRole('listitem').filter((li) => li.classList.contains('ranking'));
    expect(first!.className).toBe('ranking top');
    expect(second!.className).toBe('ranking');
  });

  it('names a player who left with the best result, not a tie, when nobody still seated is up', () => {
    // Ana (dealer) and Ben (SB) fold: Cal (BB) wins Ben's small blind and goes home up $1.00. Ana and Ben
    // are not up, and not tied at the top either.
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'FOLD'); // Ana (dealer) folds
    room = actNow(room, 'FOLD'); // Ben (SB) folds: Cal (BB) wins Ben's $1.00
    room = step(room, 'cal', { type: 'leave' }); // Cal goes home up $1.00
    room = step(room, 'ana', { type: 'endGame' });
    render(<GameOver room={room} me="ana" onHome={() => {}} />);
    expect(rows('Rankings')).toEqual([
      '1CalWinner(left)Final chips $51.00Net +$1.00',
      '2Ana(You)Final chips $50.00Net $0.00',
      '3BenFinal chips $49.00Net -$1.00',
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("Cal Left em' all Chipless!");
    const [first] = screen.getAllByRole('listitem').filter((li) => li.classList.contains('ranking'));
    expect(first!.className).toBe('ranking top');
  });

  it("says 'Everyone went Chipless!' when nobody has chips left", () => {
    const zero = { netResult: -5_000, isWinner: false, goneTag: '' };
    expect(
      headline([
        { id: 'a', name: 'Ana', label: 'Ana', finalChips: 0, ...zero },
        { id: 'b', name: 'Ben', label: 'Ben', finalChips: 0, ...zero },
      ]),
    ).toBe('Everyone went Chipless!');
    // One player left with chips is that player's win.
    expect(
      headline([
        { id: 'a', name: 'Ana', label: 'Ana', finalChips: 100, netResult: 100, isWinner: true, goneTag: '' },
      ]),
    ).toBe("Ana Left em' all Chipless!");
  });

  it('a net result of a single cent up is signed', () => {
    expect([signed(1), signed(0), signed(-1)]).toEqual(['+$0.01', '$0.00', '-$0.01']);
  });

  it('equal final chips: the better net result ranks first, whichever seat it has', () => {
    const room = started(['Ana', 'Ben', 'Cal']);
    const ended = (nets: Record<string, number>): Room => ({
      ...room,
      players: Object.fromEntries(
        Object.entries(room.players).map(([id, p]) => [
          id,
          { ...p, finalChips: 5_000, netResult: nets[p.name] ?? 0, isWinner: false },
        ]),
      ),
    });
    expect(standings(ended({ Ana: -1_000, Ben: 2_000, Cal: 0 })).map((s) => s.name)).toEqual([
      'Ben',
      'Cal',
      'Ana',
    ]);
    expect(standings(ended({ Ana: 2_000, Ben: -1_000, Cal: 500 })).map((s) => s.name)).toEqual([
      'Ana',
      'Cal',
      'Ben',
    ]);
  });
});

describe('Game over: the results for the group chat (Copy Results, Share Results)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(document, 'execCommand');
  });

  /**
   * Ana raises, Ben and Cal fold; Cal leaves with $48.00, a new "Cal" sits down with $20.00, the host
   * removes Ben (with $49.00: "(removed)", not "(left)"); the game ends.
   */
  function ended() {
    let room = started(['Ana', 'Ben', 'Cal']);
    room = actNow(room, 'RAISE', 600);
    room = actNow(room, 'FOLD');
    room = actNow(room, 'FOLD');
    room = step(room, 'cal', { type: 'leave' });
    room = step(room, 'cal2', { type: 'join', name: 'Cal', startingChips: 2_000 });
    room = step(room, 'ana', { type: 'approve', playerId: 'cal2' });
    room = step(room, 'ana', { type: 'remove', playerId: 'ben' });
    return onTheDay(step(room, 'ana', { type: 'endGame' }));
  }

  /** The test rooms' clock is in 1970: the game ended at noon UTC on Nov 27, 2026 (the same day in every time zone the tests may run in). */
  const onTheDay = (room: Room): Room => ({
    ...room,
    gameState: { ...room.gameState, endedAt: Date.UTC(2026, 10, 27, 12) },
  });

  const TEXT = [
    'Chipless results, Nov 27, 2026',
    "Ana Left em' all Chipless!",
    '',
    'Settlements:',
    'Cal (left) owes Ana $2.00',
    'Ben owes Ana $1.00',
    '',
    'Rankings:',
    '1. Ana: net +$3.00, final chips $53.00',
    '2. Ben (removed): net -$1.00, final chips $49.00',
    '3. Cal (left): net -$2.00, final chips $48.00',
    '4. Cal: net $0.00, final chips $20.00',
  ].join('\n');

  it('says "(removed)" of a player the host removed and "(left)" of one who left, on the screen too', () => {
    render(<GameOver room={ended()} me="cal2" onHome={() => {}} />);
    expect(rows('Rankings')).toEqual([
      '1AnaWinnerFinal chips $53.00Net +$3.00',
      '2Ben(removed)Final chips $49.00Net -$1.00',
      '3Cal(left)Final chips $48.00Net -$2.00',
      '4Cal(You)Final chips $20.00Net $0.00',
    ]);
  });

  it('copies the headline, who owes whom and the rankings as text, and says "Copied!"', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText }, share: undefined });
    render(<GameOver room={ended()} me="cal2" onHome={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Share Results' })).toBeNull();
    const copy = screen.getByRole('button', { name: 'Copy Results' });
    await act(async () => fireEvent.click(copy));
    expect(writeText).toHaveBeenCalledTimes(1);
    expect(writeText).toHaveBeenCalledWith(TEXT);
    expect(copy.textContent).toBe('Copied!');
  });

  it('shares the same text where the phone has a share sheet; a cancelled sheet is no error', async () => {
    const share = vi.fn(async (_data: ShareData) => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    vi.stubGlobal('navigator', { ...navigator, share });
    render(<GameOver room={ended()} me="ana" onHome={() => {}} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Share Results' })));
    expect(share).toHaveBeenCalledWith({ title: 'Chipless results', text: TEXT });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("no settlements: the text says 'No settlements needed.'; a refused copy says to take a screenshot", async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined, share: undefined });
    const tried: string[] = [];
    const execCommand = () => {
      tried.push((document.activeElement as HTMLTextAreaElement).value);
      return false;
    };
    Object.defineProperty(document, 'execCommand', { configurable: true, value: vi.fn(execCommand) });
    const room = onTheDay(step(started(['Ana', 'Ben']), 'ana', { type: 'endGame' }));
    render(<GameOver room={room} me="ana" onHome={() => {}} />);
    const copy = screen.getByRole('button', { name: 'Copy Results' });
    await act(async () => fireEvent.click(copy));
    expect(tried).toEqual([
      [
        'Chipless results, Nov 27, 2026',
        "It's a Tie! Nobody left Chipless!",
        '',
        'Settlements:',
        'No settlements needed.',
        '',
        'Rankings:',
        '1. Ana: net $0.00, final chips $50.00',
        '2. Ben: net $0.00, final chips $50.00',
      ].join('\n'),
    ]);
    expect(copy.textContent).toBe('Copy Results');
    expect(screen.getByRole('status').textContent).toBe(
      'This browser would not copy. Take a screenshot instead.',
    );
  });
});
