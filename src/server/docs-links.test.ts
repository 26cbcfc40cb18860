/**
 * The README and the pages under docs/: every relative link leads to a file that exists, every
 * anchor to a heading of its page (as GitHub names headings), and every page is linked from the
 * README, so a page moved or a heading renamed breaks a test, not a reader's click.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(import.meta.dirname, '../..'));
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Text outside fenced code blocks and inline code spans. */
const prose = (markdown: string): string[] => {
  let fenced = false;
  return markdown.split('\n').flatMap((line) => {
    if (line.startsWith('```')) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [line.replace(/`[^`]*`/g, '')];
  });
};

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
const headingAnchors = (markdown: string): Set<string> => {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    anchors.add(seen === 0 ? base : `${base}-${seen}`);
  }
  return anchors;
};

const linksOf = (markdown: string): string[] =>
  prose(markdown).flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string));

describe('the docs', () => {
  const texts = new Map(PAGES.map((page) => [page, readFileSync(join(ROOT, page), 'utf8')]));

  it('link only to files that exist and headings their pages have', () => {
    const broken: string[] = [];
    for (const [page, text] of texts) {
      for (const link of linksOf(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? page : relative(ROOT, normalize(join(ROOT, dirname(page), path)));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${page}: ${link} (no file ${target})`);
          continue;
        }
        if (anchor === undefined) continue;
        const targetText = texts.get(target) ?? (target.endsWith('.md') ? readFileSync(join(ROOT, target), 'utf8') : undefined);
        if (targetText === undefined || !headingAnchors(targetText).has(anchor)) broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('are all reachable from the README', () => {
    const linked = new Set(linksOf(texts.get('README.md') ?? '').map((link) => link.split('#')[0]));
    expect(PAGES.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });

  it('name anchors as GitHub does', () => {
    expect([...headingAnchors('# Running several instances (a cluster)\n## Errors\n## Errors\n### `GET /metrics`: scraping')]).toEqual([
      'running-several-instances-a-cluster',
      'errors',
      'errors-1',
      'get-metrics-scraping',
    ]);
  });
});
