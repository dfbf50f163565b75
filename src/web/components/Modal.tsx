import { type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { common } from '../texts';
import { CloseIcon } from './icons';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open dialogs, innermost last: only the top one reacts to Escape and Tab. */
const stack: string[] = [];

/** Whether a dialog is open: the screen under it is inert then, its live regions unheard (announcer.ts). */
export function dialogOpen(): boolean {
  return stack.length > 0;
}

function setBackgroundInert(inert: boolean) {
  const root = document.getElementById('root');
  if (!root) return;
  if (inert) root.setAttribute('inert', '');
  else root.removeAttribute('inert');
}

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog box. */
  className?: string;
  /** Hide the close button (the dialog still closes on Escape). */
  hideClose?: boolean;
  /** The id of the text that says what the dialog is about (aria-describedby), read with its name. */
  describedBy?: string;
}

/**
 * The one dialog of the app: role="dialog", aria-modal, named by its title, focus kept inside
 * (Tab cycles), Escape and the backdrop close it, and focus returns where it was on close.
 * The first element marked data-autofocus (else the first focusable one) gets focus on open.
 */
export function Modal({ title, onClose, children, className, hideClose, describedBy }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // A layout effect: React cleans those up when Suspense hides the screen a dialog is on (the landing,
  // with the create form still open, while the lobby's code loads after the create), and runs them
  // again if it is shown again. A passive one stayed: #root inert under "Opening the game…" and the
  // dialog counted open (dialogOpen) while none was shown (session 36, e2e/restart.test.ts).
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    stack.push(titleId);
    setBackgroundInert(true);
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first =
      node.querySelector<HTMLElement>('[data-autofocus]') ??
      node.querySelector<HTMLElement>(FOCUSABLE) ??
      node;
    first.focus();

    const onKeyDown = (e: KeyboardEvent) => {
      if (stack[stack.length - 1] !== titleId) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        onCloseRef.current();
      } else if (e.key === 'Tab') {
        const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) {
          e.preventDefault();
          node.focus();
          return;
        }
        const firstItem = items[0]!;
        const lastItem = items[items.length - 1]!;
        const active = document.activeElement;
        if (e.shiftKey && (active === firstItem || !node.contains(active))) {
          e.preventDefault();
          lastItem.focus();
        } else if (!e.shiftKey && (active === lastItem || !node.contains(active))) {
          e.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const at = stack.lastIndexOf(titleId);
      if (at >= 0) stack.splice(at, 1);
      if (stack.length === 0) setBackgroundInert(false);
      previous?.focus();
    };
  }, [titleId]);

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a tap on the backdrop is a pointer shortcut; keyboard users close with Escape or the close button.
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onCloseRef.current();
      }}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={className ? `modal ${className}` : 'modal'}
      >
        <div className="modal-head">
          <h2 id={titleId}>{title}</h2>
          {hideClose ? null : (
            <button type="button" className="icon-button" aria-label={common.close} onClick={onClose}>
              <CloseIcon />
            </button>
          )}
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
