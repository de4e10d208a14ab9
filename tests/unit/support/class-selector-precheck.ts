import QuerySelector from 'happy-dom/lib/query-selector/QuerySelector.js';

/*
 * happy-dom computes an element's style by matching it against every rule in the document, parsing the
 * rule's selector again for each element. A page of the console carries 450-1,100 emotion rules, and
 * testing-library computes the style of every element it names (getByRole with a name checks whether each
 * descendant is hidden): in a profile of the component tests, that matching was a quarter of their CPU.
 *
 * Nearly all of those selectors end in a compound that names classes (`.css-1x2y3z`, `.css-abc:hover`,
 * `.css-abc .MuiSvgIcon-root`). An element that lacks one of those classes cannot match, whatever the
 * rest of the selector says, so the answer "no match" is given before happy-dom parses anything. A
 * selector this does not read (a list, escapes, shadow trees) goes to happy-dom unchanged, as does every
 * element that has the classes. Timed on the whole unit project: 229 s of CPU before, 183-209 s after.
 */

/** Selectors this precheck leaves to happy-dom: escapes, nesting, namespaces, and subjects in shadow trees. */
const UNREAD = /[\\&|]|::slotted|::part|:host/;
const IDENT = /^-?[_a-zA-Z][\w-]*/;
const COMBINATOR = new Set([' ', '\t', '\n', '>', '+', '~']);

/**
 * The classes an element must have to match `selector`: those its last compound names outside brackets and
 * parentheses (`.a:not(.b)` needs `a`, not `b`). Null when there are none, or the selector is a list or not
 * one this reads.
 */
export function subjectClasses(selector: string): string[] | null {
  const text = selector.trim();
  if (!text || UNREAD.test(text)) return null;
  let depth = 0;
  let quote: string | null = null;
  let subjectStart = 0;
  const classAt: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (depth === 0 && char === ',') return null;
    else if (depth === 0 && COMBINATOR.has(char)) {
      subjectStart = i + 1;
      classAt.length = 0;
    } else if (depth === 0 && char === '.') classAt.push(i + 1);
  }
  if (depth !== 0 || quote || subjectStart >= text.length) return null;
  const classes: string[] = [];
  for (const at of classAt) {
    const name = IDENT.exec(text.slice(at))?.[0];
    if (!name) return null;
    classes.push(name);
  }
  return classes.length > 0 ? classes : null;
}

type Matches = typeof QuerySelector.matches;
const ELEMENT_NODE = 1;

/** Installs the precheck on happy-dom's matcher (once per worker). */
export function installClassSelectorPrecheck(): void {
  const original: Matches & { prechecked?: true } = QuerySelector.matches;
  if (original.prechecked) return;
  const known = new Map<string, string[] | null>();
  const matches: Matches & { prechecked?: true } = function (this: typeof QuerySelector, element, selector, options) {
    if (typeof selector === 'string' && element.nodeType === ELEMENT_NODE) {
      let classes = known.get(selector);
      if (classes === undefined) {
        classes = subjectClasses(selector);
        known.set(selector, classes);
      }
      if (classes && !classes.every((name) => element.classList.contains(name))) return null;
    }
    return original.call(this, element, selector, options);
  };
  matches.prechecked = true;
  QuerySelector.matches = matches;
}
