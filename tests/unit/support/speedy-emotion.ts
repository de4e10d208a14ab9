import { __unsafe_useEmotionCache } from '@emotion/react';
import { renderHook } from '@testing-library/react';
import CSSStyleSheet from 'happy-dom/lib/css/CSSStyleSheet.js';
import * as PropertySymbol from 'happy-dom/lib/PropertySymbol.js';

/*
 * Emotion's development build gives every rule a <style> element of its own, and in a worker that keeps
 * its DOM from file to file (isolate: false) the head fills with thousands of them: happy-dom walks them
 * all for each computed style (testing-library asks one for every element it names), and <Global> (the
 * baseline CSS) searches them on each mount. Here the default cache inserts its rules into one sheet
 * with insertRule, as emotion's production build does; the rules and their order are the same.
 *
 * happy-dom forgets its computed styles when a <style> element comes or goes, but not on insertRule:
 * the wrapper below forgets them there too, so a style is never read from before a rule was added.
 */
export function speedyEmotion(): void {
  const hook = renderHook(() => __unsafe_useEmotionCache());
  const cache = hook.result.current;
  hook.unmount();
  if (!cache) throw new Error("Emotion's default cache moved: see tests/unit/support/speedy-emotion.ts");
  // The setup file runs again for each file a worker takes (isolate: false): the first run switched it.
  if (cache.sheet.isSpeedy) return;
  if (cache.sheet.tags.length > 0) throw new Error('Emotion inserted rules before the setup file ran');
  cache.sheet.isSpeedy = true;
  const sheet = CSSStyleSheet.prototype as unknown as { insertRule(rule: string, index?: number): number };
  const insertRule = sheet.insertRule;
  sheet.insertRule = function (this: CSSStyleSheet, rule: string, index?: number) {
    const at = insertRule.call(this, rule, index);
    (document as unknown as Record<symbol, () => void>)[PropertySymbol.clearComputedStyleCache]();
    return at;
  };
}
