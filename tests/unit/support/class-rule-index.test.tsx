import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';

/** Rules that match nothing here, enough of them for the index to take the list (it skips short ones). */
const FILLER = Array.from({ length: 40 }, (_, i) => `.filler-${i} { color: gray }`);

/** A style element of its own and a tree under <body>, both gone after the test: the worker shares the document. */
function page(css: string[], html: string): { sheet: CSSStyleSheet; style: HTMLStyleElement; root: HTMLElement } {
  const style = document.createElement('style');
  style.textContent = css.join('\n');
  document.head.append(style);
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  onTestFinished(() => {
    style.remove();
    root.remove();
  });
  return { sheet: style.sheet!, style, root };
}

// The setup file installs the index, so these computed styles go through it.
describe("the test environment's index of style rules by class", () => {
  it('applies the rules an element matches, in the order of the sheet', () => {
    const { root } = page(
      [
        '.quiet { color: blue }',
        ...FILLER,
        '.card { color: red }',
        '.panel .label { visibility: hidden }',
        '@media (min-width: 1px) { .card { font-weight: 700 } }',
        '@media (max-width: 1px) { .card { width: 300px } }',
        'span { text-align: center }',
        '.a, .card { text-decoration: underline }',
      ],
      '<div class="panel"><span class="card quiet"><b class="label">x</b></span></div><b class="label">y</b>',
    );
    const card = getComputedStyle(root.querySelector('.card')!);
    // Same weight: the later rule wins, though the element names its classes the other way round.
    expect(card.color).toBe('red');
    expect(card.fontWeight).toBe('700');
    expect(card.width).not.toBe('300px');
    expect(card.textAlign).toBe('center');
    expect(card.textDecoration).toBe('underline');
    const [inPanel, outside] = [...root.querySelectorAll('.label')];
    expect(getComputedStyle(inPanel).visibility).toBe('hidden');
    expect(getComputedStyle(outside).visibility).not.toBe('hidden');
  });

  it('follows rules inserted and deleted after a style was computed', () => {
    const { sheet, style, root } = page(FILLER, '');
    // A new element each time: happy-dom keeps an element's computed style past a deleteRule.
    const color = () => {
      const card = document.createElement('span');
      card.className = 'card';
      root.append(card);
      return getComputedStyle(card).color;
    };
    expect(color()).not.toBe('red');

    sheet.insertRule('.card { color: red }', sheet.cssRules.length);
    expect(color()).toBe('red');
    sheet.insertRule('.card { color: green }', 0);
    expect(color()).toBe('red');
    sheet.deleteRule(sheet.cssRules.length - 1);
    expect(color()).toBe('green');

    sheet.insertRule('@media (min-width: 1px) { .other { color: blue } }', sheet.cssRules.length);
    expect(color()).toBe('green');
    (sheet.cssRules[sheet.cssRules.length - 1] as CSSMediaRule).insertRule('.card { color: blue }', 0);
    expect(color()).toBe('blue');

    style.textContent = [...FILLER, '.card { color: purple }'].join('\n');
    expect(color()).toBe('purple');
  });

  it("still hides what emotion's rules hide from testing-library", () => {
    render(
      <>
        {/* Rules enough for the index to take emotion's sheet even when this file runs alone. */}
        {FILLER.map((_, i) => (
          <Box key={i} sx={{ marginTop: `${i}px` }} />
        ))}
        <Box sx={{ display: 'none' }}>
          <Button>Hidden</Button>
        </Box>
        <Box sx={{ visibility: 'hidden' }}>
          <Button>Invisible</Button>
        </Box>
        <Button>Shown</Button>
      </>,
    );
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Shown']);
    expect(screen.getByText('Hidden')).not.toBeVisible();
    expect(screen.getByText('Invisible')).not.toBeVisible();
    expect(screen.getByText('Shown')).toBeVisible();
  });
});
