import { useEffect, useRef, useState } from 'react';

/**
 * True once `key` has stayed the same for `ms` (a new key starts again; null never waits, and
 * forgets). The table's "has it waited long enough" questions: a player's turn (the host's "Fold for
 * Bob"), the host away (a player's "Take Over as Host"). Counted on this phone's clock from when it
 * saw the key, never against the server's timestamps: a phone's clock can be minutes off.
 *
 * `waitedAlready`: how long the key had already waited when this phone first saw it, as far as is
 * known: a room just loaded (a reload, the phone's first look) carries the server's own count
 * (RoomSnapshot.idle), where the phone would otherwise wait the whole time again for a table that has
 * waited most of it (the clock audit, session 37). Read when the key appears only: a later snapshot
 * without it does not restart the wait, and a key that appears afterwards (the host's phone going
 * away on a quiet table) waits the whole `ms` from then.
 */
export function useWaited(key: string | null, ms: number, waitedAlready = 0): boolean {
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  const waitedRef = useRef(waitedAlready);
  waitedRef.current = waitedAlready;
  useEffect(() => {
    // A pause (null) forgets the wait: the same key later waits again from the start.
    if (key === null) {
      setWaitedFor(null);
      return;
    }
    const timer = setTimeout(() => setWaitedFor(key), Math.max(0, ms - waitedRef.current));
    return () => clearTimeout(timer);
  }, [key, ms]);
  return key !== null && waitedFor === key;
}
