import { describe, expect, it } from 'vitest';
import * as content from './pages/content';
import * as roomTexts from './room-texts';
import * as texts from './texts';

/** A placeholder argument: reads as "X" in a template, has a string's methods and a list's join. */
const X = Object.assign(new String('X'), { join: () => 'X' });

/** Every text of a module: its strings, and what its text functions make of placeholder arguments. */
function allTexts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return allTexts(value(...Array.from({ length: value.length }, () => X)));
  if (Array.isArray(value)) return value.flatMap(allTexts);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(allTexts);
  return [];
}

describe('the texts of the app', () => {
  it('write the apostrophe one way: straight, as the spec\'s ("You\'re Chipless!")', () => {
    const all = [texts, roomTexts, content].flatMap(allTexts);
    expect(all.length).toBeGreaterThan(200);
    expect(all.filter((s) => /[‘’]/.test(s))).toEqual([]);
  });
});
