import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Table } from './screens/Table';
import { actNow, snapshot, started, step } from './test/rooms';

/**
 * The stylesheet against the spec's texts: what a person reads is the text as rendered, so CSS must
 * not change the spec's capitalisation ("2 Pots", SPEC section 2) with text-transform.
 */
afterEach(() => {
  cleanup();
  for (const el of document.head.querySelectorAll('style[data-test]')) el.remove();
});

function withStylesheet(): void {
  const style = document.createElement('style');
  style.dataset.test = '';
  style.textContent = readFileSync(join(__dirname, 'styles.css'), 'utf8');
  document.head.appendChild(style);
}

/** Ben all-in for $10 pre-flop, Cal and Ana go on betting on the flop: a main pot and a side pot. */
function twoPots() {
  let room = started(['Ana', 'Ben', 'Cal'], { chips: { Ben: 1_000 } });
  room = actNow(room, 'CALL');
  room = actNow(room, 'ALL_IN');
  room = actNow(room, 'CALL');
  room = actNow(room, 'CALL');
  room = step(room, 'ana', { type: 'advanceStage' });
  return actNow(actNow(room, 'RAISE', 1_000), 'CALL');
}

describe('styles.css', () => {
  it('shows "N Pots" as the spec writes it, not upper-cased', () => {
    withStylesheet();
    const ok = async () => ({ ok: true as const, data: null });
    render(createElement(Table, { snapshot: snapshot(twoPots()), me: 'ana', send: ok, onLeave: ok }));
    const label = document.querySelector('.pot .label') as HTMLElement;
    expect(label.textContent).toBe('2 Pots');
    const style = getComputedStyle(label);
    expect(style.fontWeight).toBe('600'); // the label's own rule applies: the stylesheet is loaded
    expect(style.textTransform).not.toBe('uppercase');
  });

  it('has no hover rule outside @media (hover: hover): on a touch phone a tap leaves :hover stuck', () => {
    const css = readFileSync(join(__dirname, 'styles.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    // The selectors with :hover, each with the @media blocks it sits in.
    const outside: string[] = [];
    const open: string[] = [];
    let head = '';
    for (const ch of css) {
      if (ch === '{') {
        const selector = head.trim();
        if (selector.includes(':hover') && !open.some((m) => m.replace(/\s+/g, '') === '@media(hover:hover)'))
          outside.push(selector);
        open.push(selector);
        head = '';
      } else if (ch === '}') {
        open.pop();
        head = '';
      } else if (ch === ';') head = '';
      else head += ch;
    }
    expect(css).toContain(':hover');
    expect(outside).toEqual([]);
  });
});
