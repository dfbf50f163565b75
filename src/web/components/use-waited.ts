import { useEffect, useState } from 'react';

/**
 * True once `key` has stayed the same for `ms` (a new key starts again; null never waits, and
 * forgets). The table's "has it waited long enough" questions: a player's turn (the host's "Fold for Bob"), the host away
 * (a player's "Take over as host"). Counted on this phone's clock from when it saw the key, never
 * against the server's timestamps: a phone's clock can be minutes off.
 */
export function useWaited(key: string | null, ms: number): boolean {
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  useEffect(() => {
    // A pause (null) forgets the wait: the same key later waits again from the start.
    if (key === null) {
      setWaitedFor(null);
      return;
    }
    const timer = setTimeout(() => setWaitedFor(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return key !== null && waitedFor === key;
}
