import CSSComputedStyle from 'happy-dom/lib/css/declaration/computed-style/CSSComputedStyle.js';
import CSSRuleTypeEnum from 'happy-dom/lib/css/CSSRuleTypeEnum.js';
import type CSSRule from 'happy-dom/lib/css/CSSRule.js';
import CSSStyleSheet from 'happy-dom/lib/css/CSSStyleSheet.js';
import type CSSStyleRule from 'happy-dom/lib/css/rules/CSSStyleRule.js';
import CSSGroupingRule from 'happy-dom/lib/css/rules/CSSGroupingRule.js';
import { subjectClasses } from './class-selector-precheck';

/*
 * happy-dom computes an element's style by walking every rule of every sheet, for the element and each
 * ancestor whose style it has not cached. A worker's emotion sheet (support/speedy-emotion.ts) holds the
 * rules of every file it ran, thousands of them, and testing-library asks for the style of each element
 * it names: the walk alone (the precheck's "no match" included) was a quarter of the CPU in a profile.
 *
 * Here each long rule list is indexed by a class its rules' subjects must have (`subjectClasses`, the
 * precheck's reading), and happy-dom walks only the rules indexed under a class of the elements in hand,
 * plus every rule the index cannot key (other selectors, @font-face, @scope...), in the sheet's order: the
 * rules left out are those the precheck would have answered "no match" for every one of the elements,
 * so the matched rules, their order and their weights are the same. A media or supports rule is keyed
 * by its inner rules' classes. The index follows insertRule and deleteRule (of sheets and grouping
 * rules) and a <style> element's new text (a new list).
 */

interface StyleTarget {
  element: Element;
}
interface ParseOptions {
  elements: StyleTarget[];
  cssRules: CSSRule[];
  hostElement?: unknown;
}
type ParseCSSRules = ((this: CSSComputedStyle, options: ParseOptions) => void) & { indexed?: true };

/** Lists shorter than this are walked as they are: indexing them costs more than it saves. */
const INDEXED_LENGTH = 32;
const CLASS_SEPARATOR = /[\t\f\n\r ]+/;

/**
 * The classes one of which an element must have for `rule` to apply to it, or null if any element may
 * match (a selector the precheck does not read, or a rule of another kind).
 */
function keyClasses(rule: CSSRule): string[] | null {
  if (rule.type === CSSRuleTypeEnum.styleRule) {
    const classes = subjectClasses((rule as CSSStyleRule).selectorText);
    return classes ? [classes[0]] : null;
  }
  if (rule.type !== CSSRuleTypeEnum.mediaRule && rule.type !== CSSRuleTypeEnum.supportsRule) return null;
  const keys: string[] = [];
  for (const inner of (rule as CSSGroupingRule).cssRules) {
    const innerKeys = keyClasses(inner);
    if (!innerKeys) return null;
    keys.push(...innerKeys);
  }
  return keys;
}

class RuleIndex {
  /** The list as indexed: a list that still starts with these rules is indexed further from its end. */
  readonly rules: CSSRule[] = [];
  private readonly unkeyed: number[] = [];
  private readonly byClass = new Map<string, number[]>();

  /** The count of sheet edits when this index last caught up with its list. */
  sheetEdits = -1;

  constructor(readonly groupingEdits: number) {}

  extends(list: CSSRule[]): boolean {
    return list.length >= this.rules.length && this.rules.every((rule, at) => list[at] === rule);
  }

  addFrom(list: CSSRule[]): void {
    for (let at = this.rules.length; at < list.length; at++) {
      const rule = list[at];
      this.rules.push(rule);
      const keys = keyClasses(rule);
      if (!keys) this.unkeyed.push(at);
      for (const name of keys ?? []) {
        const positions = this.byClass.get(name);
        if (!positions) this.byClass.set(name, [at]);
        else if (positions[positions.length - 1] !== at) positions.push(at);
      }
    }
  }

  /** The rules that may apply to one of `targets`, in the list's order. */
  candidates(targets: StyleTarget[]): CSSRule[] {
    const positions = [...this.unkeyed];
    for (const { element } of targets) {
      const names = element.getAttribute('class')?.trim();
      if (!names) continue;
      for (const name of names.split(CLASS_SEPARATOR)) positions.push(...(this.byClass.get(name) ?? []));
    }
    positions.sort((a, b) => a - b);
    return positions.filter((at, i) => at !== positions[i - 1]).map((at) => this.rules[at]);
  }
}

/** Installs the index on happy-dom's computed style (once per worker); needs the precheck installed. */
export function installClassRuleIndex(): void {
  const style = CSSComputedStyle.prototype as unknown as { parseCSSRules: ParseCSSRules };
  const parseCSSRules = style.parseCSSRules;
  if (parseCSSRules.indexed) return;

  const indexes = new WeakMap<CSSRule[], RuleIndex>();
  let sheetEdits = 0;
  let groupingEdits = 0;
  const indexOf = (list: CSSRule[]): RuleIndex => {
    let index = indexes.get(list);
    const current = index?.groupingEdits === groupingEdits;
    if (current && index?.sheetEdits === sheetEdits && index.rules.length === list.length) return index;
    // A rule inserted into or deleted from a media rule changes the keys of the lists holding it.
    if (!index || !current || !index.extends(list)) {
      index = new RuleIndex(groupingEdits);
      indexes.set(list, index);
    }
    index.addFrom(list);
    index.sheetEdits = sheetEdits;
    return index;
  };

  const indexed: ParseCSSRules = function (options) {
    if (options.hostElement || options.cssRules.length < INDEXED_LENGTH) return parseCSSRules.call(this, options);
    const cssRules = indexOf(options.cssRules).candidates(options.elements);
    return parseCSSRules.call(this, { ...options, cssRules });
  };
  indexed.indexed = true;
  style.parseCSSRules = indexed;

  countEdits(CSSStyleSheet.prototype, () => sheetEdits++);
  countEdits(CSSGroupingRule.prototype, () => groupingEdits++);
}

function countEdits(
  target: { insertRule(...args: unknown[]): number; deleteRule(...args: unknown[]): void },
  count: () => void,
) {
  const { insertRule, deleteRule } = target;
  target.insertRule = function (...args) {
    count();
    return insertRule.apply(this, args);
  };
  target.deleteRule = function (...args) {
    count();
    deleteRule.apply(this, args);
  };
}
