/**
 * Ghost taps: the second tap of a double (or triple) tap lands where the first did, and by then the
 * screen may have put another control there: the action row where "Flop" was, the next player's
 * "Deny" where the denied one's row was, the home screen's "Join with Code" where "Leave Game" was.
 * A finger does not follow the screen, so that tap was never meant for the new control
 * (e2e/tipsy.test.ts: a double tap on "Flop" also checked for the host; a triple tap on "Approve Bob"
 * approved Cat too).
 *
 * So a pointer click is dropped (in the capture phase, before React sees it, default action
 * prevented) when it comes within GHOST_MS of the previous one, within GHOST_PX of where that one
 * landed, and hits another control than the tap that began the series (another element, or the same
 * one saying something else: "Call $3.00" where "Call $1.00" was tapped). A tap on the same control
 * goes through (that control's own pending state decides, as for every double tap), and so does
 * every keyboard or scripted click (`detail` 0).
 *
 * Only a finger's (or a pen's) taps: the tap that lands blind is a touch screen's, where the app is
 * used one-handed. Mouse clicks are left as they were (a desktop browser, the e2e suites' clicks).
 * GHOST_MS is above a phone's double-tap interval (Android's is 300 ms) and below what a deliberate
 * tap on a control that just appeared takes: the server's answer, then seeing it and reaching for it.
 * Such a tap, if it comes sooner, is simply a tap again.
 */

/** Taps of one series come less than this apart (ms). */
export const GHOST_MS = 400;
/** ...and land within this distance of each other (CSS px: about a fingertip). */
const GHOST_PX = 40;

/**
 * What a tap hits: the interactive element around the target (a button's icon is its button) and what
 * it says. React may keep the same element for the control that takes another's place (a button
 * whose text and handler change), so a control is the element with its words.
 */
interface Control {
  element: Element | null;
  says: string;
}

function controlOf(target: EventTarget | null): Control {
  if (!(target instanceof Element)) return { element: null, says: '' };
  const found =
    target.closest('button, a, input, select, textarea, label, [role="button"], [tabindex]') ?? target;
  // A label is its control: a tap on a label's text is followed by the click the label forwards to
  // its input, at the same spot and time, which is that same tap (the Winner dialog's rows).
  const element = (found instanceof HTMLLabelElement ? found.control : null) ?? found;
  return { element, says: element.getAttribute('aria-label') ?? element.textContent ?? '' };
}

const sameControl = (a: Control, b: Control) => a.element === b.element && a.says === b.says;

/**
 * Installs the guard on `win` (once per window); returns a function that removes it. `now` gives a
 * tap's time in ms (tests give their own); by default, when the finger came down (the press's
 * `timeStamp`), not when the page got to the click. A slow phone handles a double tap's second click
 * after the re-render the first caused, later by its own clock than the finger's gap, and timed that
 * way the ghost went through to the control under the finger (session 37: e2e/tipsy.test.ts on a
 * loaded machine; the press, not the click, because WebKit stamps a tap's click when it makes it).
 */
export function installTapGuard(win: Window = window, now?: (e: MouseEvent) => number): () => void {
  /** The series' first control, and where and when its latest tap landed. */
  let last: { control: Control; x: number; y: number; at: number } | null = null;

  /** The pointer of the latest press (a click is a PointerEvent in Chromium, a MouseEvent in Safari). */
  let pointer = '';
  /** When the latest press came: its event's time, which WebKit too takes from the touch. */
  let pressedAt = 0;
  const onPointerDown = (e: PointerEvent) => {
    pointer = e.pointerType;
    pressedAt = e.timeStamp;
  };
  // WebKit stamps the click that follows a tap with the time it makes it, on the page's thread, so
  // only the press tells when the finger came down there. Without pointer events (iOS before 13):
  // the click's own time, or the clock.
  const timeOf = now ?? ((e: MouseEvent) => pressedAt || e.timeStamp || win.performance.now());
  const onClick = (e: MouseEvent) => {
    // Keyboard activation (Enter, Space) and element.click() report no tap count.
    if (e.detail === 0) return;
    const type = (e as Partial<PointerEvent>).pointerType || pointer;
    if (type !== 'touch' && type !== 'pen') return;
    const at = timeOf(e);
    const control = controlOf(e.target);
    const previous = last;
    const inSeries =
      previous !== null &&
      at - previous.at < GHOST_MS &&
      Math.hypot(e.clientX - previous.x, e.clientY - previous.y) < GHOST_PX;
    if (inSeries && !sameControl(control, previous.control)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      // The series goes on from this tap, still belonging to its first control.
      last = { control: previous.control, x: e.clientX, y: e.clientY, at };
      return;
    }
    last = { control, x: e.clientX, y: e.clientY, at };
  };
  win.addEventListener('pointerdown', onPointerDown, true);
  win.addEventListener('click', onClick, true);
  return () => {
    win.removeEventListener('pointerdown', onPointerDown, true);
    win.removeEventListener('click', onClick, true);
  };
}
