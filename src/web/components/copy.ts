/**
 * Copying text (the lobby's join link) on every origin the app is opened from. The Clipboard API
 * exists only in secure contexts, and a host often serves the app over plain http on a LAN address
 * (http://192.168.x.y:3000), where `navigator.clipboard` is undefined. There the text is copied the
 * older way: a selected, off-screen, read-only textarea and `document.execCommand('copy')`, which
 * browsers still allow during a tap on any origin. Returns whether the text was copied; false only when
 * both ways were refused, and then the caller tells the person to copy it by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (clipboard && typeof clipboard.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, the document not focused): try the other way.
    }
  }
  return copyBySelection(text);
}

/**
 * `execCommand('copy')` over a hidden textarea holding `text`. The focus is put back; the page is left
 * with no selection (the copy's own is cleared, and a selection made before the tap with it: decided,
 * session 39, as the copy button's tap leaves nothing selected to act on).
 */
export function copyBySelection(text: string): boolean {
  if (typeof document === 'undefined' || typeof document.execCommand !== 'function') return false;
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  // Read-only: no keyboard pops up on a phone. 16 px: iOS does not zoom in on it. Styled through the
  // CSSOM, which the page's Content-Security-Policy (style-src 'self') allows.
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.tabIndex = -1;
  Object.assign(area.style, {
    position: 'fixed',
    top: '0',
    left: '0',
    width: '1px',
    height: '1px',
    padding: '0',
    border: '0',
    opacity: '0',
    fontSize: '16px',
  });
  document.body.appendChild(area);
  let copied = false;
  try {
    area.focus({ preventScroll: true });
    area.select();
    // iOS Safari selects nothing with select() alone on a read-only field.
    area.setSelectionRange(0, text.length);
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
    document.getSelection()?.removeAllRanges();
    focused?.focus({ preventScroll: true });
  }
  return copied;
}
