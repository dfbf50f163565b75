import { type RefObject, useEffect, useRef } from 'react';

/**
 * Keeps focus on the screen when a re-render removes the focused control (the turn's buttons after a
 * tap, an approve button, a dialog whose opener went with the turn): focus goes to `target` (the
 * screen's heading, tabIndex -1) instead of falling back to the page's start, where a screen reader
 * or a keyboard would have to find its way back from. Checks after every render of the screen.
 */
export function useFocusRescue(target: RefObject<HTMLElement | null>): void {
  const last = useRef<Element | null>(null);
  useEffect(() => {
    const onFocusIn = (e: FocusEvent) => {
      last.current = e.target instanceof Element ? e.target : null;
    };
    document.addEventListener('focusin', onFocusIn);
    watchInput();
    return () => document.removeEventListener('focusin', onFocusIn);
  }, []);
  useEffect(() => {
    const lost = last.current;
    const active = document.activeElement;
    if (!lost || lost.isConnected || (active && active !== document.body)) return;
    last.current = null;
    // Without scrolling after a tap: on a phone the tapped button goes with the turn, and the page must
    // not jump to its top after every tap. After a key, scrolled to: a keyboard user's ring off the top
    // of the screen is focus they cannot see (session 36's accessibility audit).
    target.current?.focus({ preventScroll: lastInput !== 'keyboard' });
  });
}

/** Whether a key went to a text field (or is part of a composition): typing, not keyboard moves. */
function typing(e: KeyboardEvent): boolean {
  const t = e.target;
  if (e.isComposing || e.keyCode === 229) return true;
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  return (
    t instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(t.type)
  );
}

/** What the user last did: pressed a key, or pointed (a tap, a click). Read by useFocusRescue. */
let lastInput: 'keyboard' | 'pointer' = 'pointer';
let watching = false;

/** Listens (once, for the page's life) for the user's keys and taps, in the capture phase. */
function watchInput(): void {
  if (watching) return;
  watching = true;
  document.addEventListener(
    'keydown',
    (e) => {
      // A phone's on-screen keyboard sends keys too (its "Go" submitting a raise, Android's 229s): in a
      // field they are typing, not moving around with a keyboard (review of session 37).
      if (!typing(e)) lastInput = 'keyboard';
    },
    true,
  );
  document.addEventListener('pointerdown', () => (lastInput = 'pointer'), true);
}

/**
 * Focuses `target` (the screen's heading, tabIndex -1) when the screen opens with focus nowhere, on the
 * page's body: after Start Game, End Game, a create or a join, the control that had focus went with the
 * old screen and a screen reader said nothing of the new one (session 36's accessibility audit). It then
 * reads the heading ("Pre-Flop", "Ann wins $12.00!"). Without scrolling; focus that is somewhere (a
 * field, a dialog) is left alone.
 */
export function useArrivalFocus(target: RefObject<HTMLElement | null>): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the screen opens.
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    target.current?.focus({ preventScroll: true });
  }, []);
}
