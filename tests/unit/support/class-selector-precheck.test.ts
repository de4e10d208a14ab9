import { describe, expect, it, onTestFinished } from 'vitest';
import { subjectClasses } from './class-selector-precheck';

// The setup file installs the precheck, so these computed styles go through it.
describe("the test environment's class precheck of style rules", () => {
  it('names the classes the subject of a selector must have, outside brackets and parentheses', () => {
    expect(subjectClasses('.css-1x2y3z')).toEqual(['css-1x2y3z']);
    expect(subjectClasses('.css-abc-MuiButton-root:hover')).toEqual(['css-abc-MuiButton-root']);
    expect(subjectClasses('.css-abc .MuiSvgIcon-root.Mui-disabled')).toEqual(['MuiSvgIcon-root', 'Mui-disabled']);
    expect(subjectClasses('.css-abc>span.x')).toEqual(['x']);
    expect(subjectClasses('.css-12dnrzf-MuiLink-root:not(:focus)')).toEqual(['css-12dnrzf-MuiLink-root']);
    expect(subjectClasses('.MuiTypography-root:where(.a .b)')).toEqual(['MuiTypography-root']);
    expect(
      subjectClasses('label[data-shrink=false]+.MuiInputBase-formControl .css-x::-webkit-input-placeholder'),
    ).toEqual(['css-x']);
    expect(subjectClasses('.a:not([multiple]) option')).toBeNull();
    expect(subjectClasses('.a:not(.b)')).toEqual(['a']);
  });

  it('leaves to happy-dom what it does not read', () => {
    for (const selector of [
      'body',
      '*,*::before',
      '.a,.b',
      '.css-6dimg >*',
      '.a\\:b',
      '.b::slotted(.c)',
      ':host(.a)',
      '.a [data-x="."]',
      '.9x',
      '.a >',
      '',
    ]) {
      expect(subjectClasses(selector), selector).toBeNull();
    }
  });

  it('applies the rules an element matches, and only those', () => {
    const style = document.createElement('style');
    style.textContent = [
      '.card { color: red }',
      '.card:not(.quiet) { font-weight: 700 }',
      '.card.wide { width: 300px }',
      '.panel .label { visibility: hidden }',
      '[data-x="."] .label { display: none }',
      '.a, .card { text-align: center }',
    ].join('\n');
    // Only its own nodes come and go: the worker's other files share the document, and emotion keeps
    // the style elements it inserted in the head.
    document.head.append(style);
    const root = document.createElement('div');
    root.innerHTML =
      '<div class="panel"><span class="card quiet"><b class="label">x</b></span></div><span class="other"><b class="label">y</b></span>';
    document.body.append(root);
    onTestFinished(() => {
      style.remove();
      root.remove();
    });

    const card = getComputedStyle(root.querySelector('.card')!);
    expect(card.color).toBe('red');
    expect(card.fontWeight).not.toBe('700');
    expect(card.width).not.toBe('300px');
    expect(card.textAlign).toBe('center');
    const [inPanel, outside] = [...root.querySelectorAll('.label')];
    expect(getComputedStyle(inPanel).visibility).toBe('hidden');
    expect(getComputedStyle(outside).visibility).not.toBe('hidden');
    expect(getComputedStyle(outside).display).not.toBe('none');
    expect(root.querySelector('.card')!.matches('.panel > .card.quiet')).toBe(true);
    expect(root.querySelector('.card')!.matches('.panel > .card.wide')).toBe(false);
  });
});
