const english = new Intl.PluralRules('en');

/**
 * "1 mosque", "2 mosques", "0 mosques": a count with its noun in the form English gives it (Intl.PluralRules),
 * never "mosque(s)". `other` for nouns whose plural is not the singular with an s.
 */
export function countOf(count: number, one: string, other = `${one}s`): string {
  return `${count.toLocaleString('en')} ${english.select(count) === 'one' ? one : other}`;
}
