/**
 * Accessibility by axe-core's rules (WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices) on every
 * screen and dialog of the app (`tour.ts`), on a 360×740 phone, in the browser the app ships to:
 * names and roles of controls, labels, contrast, landmarks, headings, ARIA use, lists. Every
 * violation on every screen is collected and listed at the end, so one run names them all.
 *
 * axe is evaluated through DevTools (`page.evaluate` of its source), which the page's Content Security
 * Policy does not apply to, so the app's CSP stays as it ships.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { animationsDone, chiplessSuite, type Phone, shot } from './browser';
import { tourEveryScreen } from './tour';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const NAMES = ['Ann', 'Bob', 'Cat'];

const { phones } = chiplessSuite({ phones: NAMES });
/** "screen: rule (impact): what and where", every violation found. */
const problems: string[] = [];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's violations on `p`'s page as it is now (a picture of the screen when there are any). */
async function check(p: Phone, screen: string): Promise<void> {
  const { page } = p;
  // A dialog fading in is still partly transparent: contrast is measured once every animation is done.
  await animationsDone(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (tags) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe's own global, put there by its source above.
    const axe = (window as any).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map(
      (v: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }),
    ) as Violation[];
  }, TAGS);
  for (const v of found)
    problems.push(`${screen}: ${v.id} (${v.impact}): ${v.help}: ${v.targets.join(', ')}`);
  if (found.length > 0) await shot(page, `a11y-${screen}`, true);
}

describe('accessibility', () => {
  it("every screen and dialog passes axe-core's WCAG 2.2 AA and best-practice rules", async () => {
    await tourEveryScreen(phones as [Phone, Phone, Phone], check);
    expect(problems).toEqual([]);
  });
});
