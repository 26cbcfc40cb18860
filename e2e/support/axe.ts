/** Accessibility scans of the page as it is now: WCAG A/AA breaches that are serious or critical, and any landmark breach, fail the test. */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe files these as best practice of "moderate" impact, so the WCAG scan never fails on them;
 * yet a page whose content sits outside its landmarks cannot be browsed by landmark at all.
 */
const LANDMARK_RULES = [
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-main-is-top-level',
  'landmark-banner-is-top-level',
  'landmark-no-duplicate-banner',
  'landmark-contentinfo-is-top-level',
  'landmark-complementary-is-top-level',
  'landmark-unique',
  'region',
];

type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

const describe = (violations: Violations): string[] =>
  violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).slice(0, 5).join('\n  ')}`);

export const expectNoSeriousA11yViolations = async (page: Page) => {
  // One pass: the WCAG tags, plus the landmark rules that no tag selects.
  const { violations, passes } = await new AxeBuilder({ page })
    .options({ runOnly: { type: 'tag', values: WCAG_AA }, rules: Object.fromEntries(LANDMARK_RULES.map((id) => [id, { enabled: true }])) })
    .analyze();
  const ran = new Set([...violations, ...passes].map((result) => result.id));
  expect(ran.has('region') && ran.has('landmark-one-main'), 'the landmark rules ran').toBe(true);
  const failed = describe(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || LANDMARK_RULES.includes(v.id)));
  expect(failed, failed.join('\n')).toEqual([]);
};

/**
 * Emulates a system colour scheme for a page whose theme follows the system, and waits until the
 * page has applied it: the page switches its theme from a media-query listener, after the
 * emulation returns, and a scan begun before that reads half the page in each theme.
 */
export const emulateSystemScheme = async (page: Page, colorScheme: 'light' | 'dark') => {
  await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
  await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /(^|\s)dark(\s|$)/ : /^(?!.*(^|\s)dark(\s|$))/);
  // One frame more, so the new theme is painted before the scan measures it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
};
