import { useEffect, useRef } from 'react';
import { dialogOpen } from './Modal';

/**
 * The app's one live region outside `#root`, for what a screen reader must hear whatever is open.
 *
 * An open dialog makes `#root` inert (Modal.tsx), and an inert region is not in the accessibility tree:
 * the table's turn line went unannounced while the Rebuys or Leave dialog was open, so a blind player
 * with a dialog open missed their own turn (session 36's accessibility audit). A live region created
 * together with its text is often not read either (the first turn of a game, a fold win's overlay).
 * This one is in the page before anything is said in it (`installAnnouncer`, from main.tsx) and is
 * never inert.
 */
const ID = 'announcer';

function region(): HTMLElement {
  let el = document.getElementById(ID);
  if (!el) {
    el = document.createElement('div');
    el.id = ID;
    el.className = 'sr-only';
    // aria-live alone, no role: the screens' own status regions stay the only `status`es to find.
    el.setAttribute('aria-live', 'polite');
    el.setAttribute('aria-atomic', 'true');
    document.body.appendChild(el);
  }
  return el;
}

/** Puts the live region in the page, empty, so that what is said in it later is read. */
export function installAnnouncer(): void {
  region();
}

let pending: ReturnType<typeof setTimeout> | undefined;

/**
 * Says `text` to a screen reader. Emptied first and filled a moment later, so the same words said
 * twice ("Your Turn" in two hands) are read twice; said again within that moment, the last wins.
 */
export function announce(text: string): void {
  const el = region();
  el.textContent = '';
  clearTimeout(pending);
  pending = setTimeout(() => {
    el.textContent = text;
  }, 50);
}

/**
 * Whether a dialog covers the screen, so that the screen's own live regions go unheard: one is open
 * and the browser has `inert` (Modal.tsx). Without `inert` (iOS before 15.5, Chrome before 102,
 * Firefox before 112: within the browser floor) the screen stays live under the dialog, and saying the
 * same here too would read it twice (session 36's review).
 */
export function screenCovered(): boolean {
  return dialogOpen() && typeof HTMLElement !== 'undefined' && 'inert' in HTMLElement.prototype;
}

/**
 * Announces `text` whenever `key` changes, and on the first render too when `onMount` is set; a
 * change is said only when `onlyIf` allows, the first render's always. A null key says nothing (and a
 * key that comes back after null is said again).
 *
 * `onlyIf` is asked while rendering, not in the effect: a dialog that closes in the render where the
 * turn moves on (a raise made, the "Fold instead of checking?" answered) is still open while the
 * screen's turn line changes under it, inert, and already gone by the time an effect runs, which then
 * said nothing either (session 36's review).
 */
export function useAnnounced(
  key: string | null,
  text: string,
  options: { onMount?: boolean; onlyIf?: () => boolean } = {},
): void {
  const last = useRef<string | null | undefined>(options.onMount ? undefined : key);
  const allowed = options.onlyIf?.() ?? true;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `allowed` is this render's answer, read with its key.
  useEffect(() => {
    if (key === last.current) return;
    const first = last.current === undefined;
    last.current = key;
    if (key !== null && (first || allowed)) announce(text);
  }, [key, text]);
}
