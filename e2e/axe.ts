import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Impacts that fail a journey (issue 14, item 5): a person with a screen reader or low vision is stopped. */
const BLOCKING: ReadonlyArray<ImpactValue> = ['serious', 'critical'];
/**
 * Rules of a lesser impact that fail a journey too: Lighthouse's accessibility score counts them, and
 * the dashboard and Fee Status lost 2 points at 375 px to an alert's title written as an h5.
 */
const ALSO_BLOCKING: ReadonlyArray<string> = ['heading-order'];

/**
 * axe-core on what the page shows now; throws with a readable list (rule, what to fix, where) of
 * the serious and critical violations and those of `ALSO_BLOCKING`. Call it once a screen has
 * loaded its data, so axe sees the screen a person sees. No rule is disabled: a violation is fixed in the component
 * (docs/decisions/0044-web-weight-and-accessibility.md).
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // evaluated through the DevTools protocol: the app's Content-Security-Policy refuses an added <script>
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // WCAG 2.1 A/AA and best practices: what Lighthouse's accessibility score is built from
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  );
  const blocking = results.violations.filter((v) => (v.impact && BLOCKING.includes(v.impact)) || ALSO_BLOCKING.includes(v.id));
  if (blocking.length === 0) return;
  const lines = blocking.flatMap((v) => [
    `- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`,
    ...v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ').trim() ?? ''}`),
    ...(v.nodes.length > 5 ? [`    …and ${v.nodes.length - 5} more`] : []),
  ]);
  if (blocking.some((v) => v.id === 'heading-order')) {
    // the page's outline, to see which heading skips a level
    const outline = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => `${h.tagName.toLowerCase()} ${(h.textContent ?? '').trim().slice(0, 40)}`));
    lines.push(`    the headings in order: ${outline.join(' · ')}`);
  }
  throw new Error(`axe-core: ${blocking.length} accessibility violation(s) on ${screen} (${page.url()}):\n${lines.join('\n')}`);
}
