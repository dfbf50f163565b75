import type { GameEvent } from '../../engine/types';

/** Strong right-to-left letters: Hebrew, Arabic, Syriac, Thaana, NKo and the rest to U+08FF, and their presentation forms. */
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

/**
 * A name as it sits inside a line of text. A name with right-to-left letters is wrapped in Unicode's
 * first-strong isolate (U+2068 … U+2069), so that the amounts and names beside it keep their order:
 * without it "Pot $40.00 to محمد $20.00, אברהם $20.00" was drawn with the dollar signs after the digits
 * and the shares between the wrong names (the layout stress review of session 35). Other names are
 * left as they are: a left-to-right line has nothing to isolate them from.
 */
export function isolate(name: string): string {
  return RTL.test(name) ? `\u2068${name}\u2069` : name;
}

/** `e` with every name in it isolated (isolate), for a line of text made from it. */
export function withIsolatedNames<E extends GameEvent>(e: E): E {
  const out: Record<string, unknown> = { ...e };
  if ('name' in e) out.name = isolate(e.name);
  if ('fromName' in e) out.fromName = isolate(e.fromName);
  if ('names' in e) out.names = e.names.map(isolate);
  if ('winners' in e) out.winners = e.winners.map((w) => ({ ...w, name: isolate(w.name) }));
  return out as E;
}
