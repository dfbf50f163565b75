import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { copyBySelection, copyText } from './copy';

/**
 * Plain http on a LAN address (http://192.168.x.y:3000) is not a secure context: no
 * navigator.clipboard. The join link must still copy, by a selection and execCommand('copy').
 */
const URL = 'http://192.168.1.20:3000/?join=ABCDE';

let copied: string[];
let execCommand: ReturnType<typeof vi.fn>;

beforeEach(() => {
  copied = [];
  // What a browser does on execCommand('copy'): copy the selected text of the focused field.
  execCommand = vi.fn((command: string) => {
    if (command !== 'copy') return false;
    const field = document.activeElement;
    if (!(field instanceof HTMLTextAreaElement)) return false;
    copied.push(field.value.slice(field.selectionStart, field.selectionEnd));
    return true;
  });
  Object.defineProperty(document, 'execCommand', { configurable: true, value: execCommand });
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'execCommand');
  document.body.innerHTML = '';
});

describe('copyText', () => {
  it('without the Clipboard API (an insecure origin) copies through a selection, leaving the page as it was', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const button = document.createElement('button');
    document.body.appendChild(button);
    button.focus();
    expect(await copyText(URL)).toBe(true);
    expect(copied).toEqual([URL]);
    expect(execCommand).toHaveBeenCalledTimes(1);
    expect(document.querySelectorAll('textarea')).toHaveLength(0);
    expect(document.activeElement).toBe(button);
  });

  it('leaves nothing selected, a selection made before the tap included (decided: copy.ts)', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const text = document.createElement('p');
    text.textContent = URL;
    document.body.appendChild(text);
    const range = document.createRange();
    range.selectNodeContents(text);
    document.getSelection()?.addRange(range);
    expect(document.getSelection()?.rangeCount).toBe(1);
    expect(await copyText(URL)).toBe(true);
    expect(copied).toEqual([URL]);
    expect(document.getSelection()?.rangeCount).toBe(0);
  });

  it('the textarea is read-only, hidden from screen readers and out of the tab order; nothing scrolls', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const seen: (string | number | null)[][] = [];
    execCommand.mockImplementation(() => {
      const area = document.activeElement as HTMLTextAreaElement;
      seen.push([area.getAttribute('readonly'), area.getAttribute('aria-hidden'), area.tabIndex]);
      return true;
    });
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    const button = document.createElement('button');
    document.body.appendChild(button);
    button.focus();
    focus.mockClear();
    expect(await copyText(URL)).toBe(true);
    expect(seen).toEqual([['', 'true', -1]]);
    // Onto the textarea and back to the button, the page not scrolled either time.
    expect(focus.mock.calls).toEqual([[{ preventScroll: true }], [{ preventScroll: true }]]);
    focus.mockRestore();
  });

  it('iOS Safari: select() selects nothing on a read-only field; the selection range still copies it all', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const select = vi.spyOn(HTMLTextAreaElement.prototype, 'select').mockImplementation(() => {});
    expect(await copyText(URL)).toBe(true);
    expect(copied).toEqual([URL]);
    select.mockRestore();
  });

  it('uses the Clipboard API where there is one', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    expect(await copyText(URL)).toBe(true);
    expect(writeText).toHaveBeenCalledWith(URL);
    expect(execCommand).not.toHaveBeenCalled();
  });

  it('falls back to the selection when the Clipboard API refuses', async () => {
    const writeText = vi.fn(async (_text: string) => {
      throw new DOMException('Document is not focused.', 'NotAllowedError');
    });
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    expect(await copyText(URL)).toBe(true);
    expect(copied).toEqual([URL]);
  });

  it('says false when both ways are refused (execCommand false or throwing, or missing)', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    execCommand.mockReturnValue(false);
    expect(await copyText(URL)).toBe(false);
    execCommand.mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(copyBySelection(URL)).toBe(false);
    Reflect.deleteProperty(document, 'execCommand');
    Object.defineProperty(document, 'execCommand', { configurable: true, value: undefined });
    expect(copyBySelection(URL)).toBe(false);
    expect(document.querySelectorAll('textarea')).toHaveLength(0);
  });
});
