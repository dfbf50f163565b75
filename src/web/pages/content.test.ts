import { describe, expect, it } from 'vitest';
import { faq } from './content';

describe('FAQ content', () => {
  it('writes the default blinds as money, like every amount in the app ($1.00 and $2.00)', () => {
    const blinds = faq.items.find((i) => i.q === 'How do blinds work?');
    expect(blinds?.a).toContain('($1.00 and $2.00 by default)');
  });

  it('does not say players can join only before the game starts (a latecomer joins a game under way)', () => {
    const join = faq.items.find((i) => i.q === 'How do my friends join?');
    expect(join?.a).not.toContain('before the game starts');
    expect(join?.a).toContain('dealt in from the next hand');
  });
});
