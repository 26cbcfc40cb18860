/// <reference types="node" />
// The palette is read from the stylesheet itself, with Node's fs: the test runner hands CSS imports over empty.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const css = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'index.css'), 'utf8');

/** The colour tokens of one theme block of index.css (`:root` or `.dark`). */
const tokens = (selector: string): Record<string, string> => {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\b/gi)].map((m) => [m[1], m[2]]));
};

/** WCAG 2 relative luminance and contrast ratio. */
const luminance = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** Every text colour may sit on every surface: a long-call row tints any cell, a hovered row raises it. */
const TEXT = ['ink', 'muted', 'accent', 'ringing', 'talking', 'missed', 'ended', 'warn', 'danger', 'inbound', 'outbound'];
const SURFACES = ['surface', 'panel', 'raised', 'warn-bg', 'danger-bg'];
const AA_NORMAL_TEXT = 4.5;

describe.each([
  ['light', ':root'],
  ['dark', '.dark'],
])('the %s palette', (_theme, selector) => {
  const palette = tokens(selector);
  const pairs = TEXT.flatMap((text) => SURFACES.map((surface) => [text, surface] as const));

  it('defines every text and surface colour', () => {
    for (const name of [...TEXT, ...SURFACES, 'accent-ink']) expect(palette[name], name).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it.each(pairs)('reads %s text on the %s surface at WCAG AA (4.5:1)', (text, surface) => {
    expect(contrast(palette[text] as string, palette[surface] as string)).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
  });

  it('reads button text on the accent', () => {
    expect(contrast(palette['accent-ink'] as string, palette.accent as string)).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
  });
});
