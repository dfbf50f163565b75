import { type FormEvent, Fragment, useState } from 'react';
import { formatCents } from '../../engine';
import type { Pot, Room } from '../../engine/types';
import type { WireCommand } from '../../shared/protocol';
import { FormSubmit, useAction } from '../components/forms';
import { Modal } from '../components/Modal';
import { awardShares } from '../game/award';
import { livePots, playersInHand, potNumber, potTotal } from '../game/view';
import type { SendCommand } from '../net/use-room';
import { winner as t, table } from '../room-texts';

interface Props {
  room: Room;
  send: SendCommand;
  onClose: () => void;
}

function potLabel(pot: Pot): string {
  return pot.isMainPot ? table.mainPot : table.sidePot(potNumber(pot));
}

/**
 * Declare the winner(s). One pot: pick one or more players (several split it). Several pots
 * (side pots): pick the winners pot by pot among the players eligible for each; sent as byPot.
 */
export function WinnerModal({ room, send, onClose }: Props) {
  const inHand = playersInHand(room);
  const pots = livePots(room);
  const perPot = pots.length > 1;
  const names = new Map(inHand.map((p) => [p.id, p.name]));
  const key = (pot: Pot | null) => (pot ? pot.id : 'all');
  const groups: Array<{ pot: Pot | null; candidates: string[] }> = perPot
    ? pots.map((pot) => ({ pot, candidates: pot.eligiblePlayers.filter((id) => names.has(id)) }))
    : [{ pot: null, candidates: inHand.map((p) => p.id) }];
  // The host's ticks, per pot. What is shown and sent is read from the room as it is now: a ticked
  // player who left meanwhile (another phone) is no longer ticked, and a pot the dialog has not seen
  // before (the pots were built again when someone left) that only one player can win is theirs.
  const [ticked, setTicked] = useState<Record<string, string[]>>({});
  // A pot the host has not ticked in yet takes the winners of the pot before it who can win it: the
  // best hand beats everyone in the main pot, so everyone in each side pot it is in (side pots hold
  // fewer and fewer of the same players). With a short all-in winning the main pot, the side pot waits
  // for a tick. Eight pots were some 45 ticks (session 26's audit); now usually one.
  const suggested = (index: number): string[] => {
    const g = groups[index] as (typeof groups)[number];
    const before = index > 0 ? chosenAt(index - 1).filter((id) => g.candidates.includes(id)) : [];
    if (before.length > 0) return before;
    return g.pot && g.candidates.length === 1 ? g.candidates : [];
  };
  const chosenAt = (index: number): string[] => {
    const g = groups[index] as (typeof groups)[number];
    const list = ticked[key(g.pot)];
    if (list === undefined) return suggested(index);
    return list.filter((id) => g.candidates.includes(id));
  };
  const chosenFor = (g: (typeof groups)[number]): string[] => chosenAt(groups.indexOf(g));
  // A refusal is not shown once the room has moved on: a ticked player who left as Award was tapped
  // is refused with their id ('Player … is not in this hand'), and the dialog already shows the room
  // without them (useAction).
  const { pending, error, setError, run } = useAction(undefined, room.nextEventSeq);

  const toggle = (g: (typeof groups)[number], id: string) => {
    const list = chosenFor(g);
    // A tick on someone else in a pot still showing its suggestion replaces it: the host is choosing
    // another winner there, and a split nobody asked for would be one tap away otherwise.
    const suggestion = ticked[key(g.pot)] === undefined && list.length > 0;
    const next = list.includes(id) ? list.filter((x) => x !== id) : suggestion ? [id] : [...list, id];
    setTicked((c) => ({ ...c, [key(g.pot)]: next }));
  };

  const split = groups.some((g) => chosenFor(g).length > 1);
  const complete = groups.every((g) => chosenFor(g).length > 0);

  const command = (): WireCommand => {
    const winnerIds = [...new Set(groups.flatMap(chosenFor))];
    return perPot
      ? {
          type: 'declareWinners',
          winnerIds,
          byPot: Object.fromEntries(groups.map((g) => [key(g.pot), chosenFor(g)])),
        }
      : { type: 'declareWinners', winnerIds };
  };
  // Who gets what, before the tap (ours): with side pots and suggested ticks, or a split with an odd
  // cent, the host reads the award the hand log will show, and can still change it.
  const shares = complete ? awardShares(room, command()) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    if (!complete) return setError(t.chooseSomeone);
    const chosen = command();
    if (await run(() => send(chosen))) onClose();
  };

  return (
    <Modal title={t.title} onClose={onClose}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="muted">{perPot ? t.choosePerPot : t.choose}</p>
        {groups.map((g) => (
          <fieldset key={key(g.pot)} className="choices">
            <legend>
              {g.pot
                ? t.potTitle(potLabel(g.pot), formatCents(g.pot.amount))
                : t.potTitle(table.pot, formatCents(potTotal(room)))}
            </legend>
            {g.candidates.map((id) => {
              const checked = chosenFor(g).includes(id);
              return (
                <label key={id} className={checked ? 'choice checked' : 'choice'}>
                  <input type="checkbox" checked={checked} onChange={() => toggle(g, id)} />
                  <span>{names.get(id)}</span>
                </label>
              );
            })}
          </fieldset>
        ))}
        {shares && shares.length > 0 ? (
          <p className="award-summary" aria-live="polite">
            {shares.map((s, i) => (
              <Fragment key={s.playerId}>
                {i > 0 ? ', ' : ''}
                {s.name} {t.gets} <span className="nowrap">{formatCents(s.amount)}</span>
              </Fragment>
            ))}
            .
          </p>
        ) : null}
        <FormSubmit
          error={error}
          pending={pending}
          disabled={!complete}
          label={split ? t.awardSplit : t.award}
          pendingLabel={t.loading}
          large
        />
      </form>
    </Modal>
  );
}
