import { useState } from 'react';

/**
 * A question about one moment of the table (the host's Undo, "Fold for Bob"): what it asks may only
 * be answered while that moment lasts. When the table moves on before it is answered (`current` turns
 * false: a player acted, another tab dealt), it closes, as a removal's question closes when the player
 * has gone: a question that changed under the host's thumb could do the wrong thing. Once sent, it
 * stays, so a refusal ('The table has moved on since…') is read, not lost with the dialog; it closes
 * when `done` shows the answer in the room (an answer lost to 'No connection…' after the server acted).
 */
export function useTableQuestion<T>(current: (asked: T) => boolean, done: (asked: T) => boolean) {
  const [asked, setAsked] = useState<T | null>(null);
  const [sent, setSent] = useState(false);
  if (asked !== null && !current(asked) && (!sent || done(asked))) {
    setAsked(null);
    setSent(false);
  }
  return {
    asked,
    ask: (question: T) => {
      setAsked(question);
      setSent(false);
    },
    /** The question's answer was sent: it now stays until answered or closed. */
    markSent: () => setSent(true),
    close: () => {
      setAsked(null);
      setSent(false);
    },
  };
}
