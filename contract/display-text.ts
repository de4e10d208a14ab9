/*
 * Text that people read as a name (a username, a full name, a mosque's name, an image's description,
 * an alarm silence's comment): it reaches the user list, the activity log, alarms, notifications and
 * the scheduler's lists, where an invisible character can reorder what follows it (U+202E turns
 * "mosque.exe" around) and letters of another script can pass for the ones expected (UTS #39).
 */

/** Bidi and other invisible format characters (Unicode Cf), except ZWNJ and ZWJ, which Persian, Urdu and emoji spell with. */
const FORMAT_CONTROL = /(?![\u200c\u200d])\p{Cf}/u;

export const formatControlMessage = (label: string) =>
  `${label} may not contain bidi or other invisible format characters (such as U+202E)`;

export function hasFormatControls(text: string): boolean {
  return FORMAT_CONTROL.test(text);
}

/**
 * Scripts in use, with the scripts Japanese, Korean and Chinese write together counted as one (UTS #39's
 * augmented script sets). A letter of a script not listed is a script of its own.
 */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Nko',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Ogham',
  'Runic',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Yi',
  'Tifinagh',
  'Vai',
  'Javanese',
  'Balinese',
  'Sundanese',
  'Adlam',
  'Coptic',
  'Glagolitic',
  'Gothic',
  'Old_Italic',
  'Lisu',
  'Bamum',
  'Tai_Le',
  'Buginese',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script_Extensions=${script}}`, 'u')] as const);
const AUGMENTED: Record<string, string[]> = {
  Han: ['Jpan', 'Kore', 'Hanb'],
  Hiragana: ['Jpan'],
  Katakana: ['Jpan'],
  Hangul: ['Kore'],
  Bopomofo: ['Hanb'],
};
/** Characters every script shares (digits, punctuation, spaces) or that take the script of what they follow (marks). */
const ANY_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** The scripts a character may be written in (its Script_Extensions), or null when it goes with any (a digit, a space, a mark). */
function scriptsOf(char: string): Set<string> | null {
  const scripts = SCRIPT_PATTERNS.filter(([, pattern]) => pattern.test(char)).flatMap(([script]) => [
    script,
    ...(AUGMENTED[script] ?? []),
  ]);
  if (scripts.length) return new Set(scripts);
  return ANY_SCRIPT.test(char) ? null : new Set([`U+${char.codePointAt(0)!.toString(16).toUpperCase()}`]);
}

/**
 * The first two scripts `text` mixes (for the message), or null when one script writes all its letters
 * (UTS #39 single-script: the scripts of its characters have one in common).
 */
export function mixedScripts(text: string): [string, string] | null {
  let common: Set<string> | null = null;
  let first: string | null = null;
  for (const char of text) {
    const scripts = scriptsOf(char);
    if (!scripts) continue;
    first ??= [...scripts][0];
    const shared: Set<string> =
      common === null ? scripts : new Set([...common].filter((script) => scripts.has(script)));
    if (shared.size === 0) return [first, [...scripts][0]];
    common = shared;
  }
  return null;
}

export const mixedScriptsMessage = (label: string, [a, b]: [string, string]) =>
  `${label} mixes the ${a.replace('_', ' ')} and ${b.replace('_', ' ')} scripts; write it in one`;

/**
 * Letters UTS #39 keeps out of identifiers (Identifier_Type Technical or Uncommon_Use): IPA, phonetic
 * extensions and modifier letters, which are Latin by script yet drawn like plain letters (ɑ, ᴀ, ɪ).
 */
const RESTRICTED_LETTERS = /[\u0250-\u02ff\u1d00-\u1dbf\ua700-\ua7ff\uab30-\uab6f]/u;

export function hasRestrictedLetters(text: string): boolean {
  return RESTRICTED_LETTERS.test(text);
}

/** Refuses invisible format characters in a display field (zod superRefine). */
export function refuseFormatControls(label: string) {
  return (text: string, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }) => {
    if (hasFormatControls(text)) ctx.addIssue({ code: 'custom', message: formatControlMessage(label) });
  };
}

/** Refuses a name that could pass for another: invisible format characters, or letters of two scripts. */
export function refuseImpersonation(label: string) {
  return (text: string, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }) => {
    refuseFormatControls(label)(text, ctx);
    const mixed = mixedScripts(text);
    if (mixed) ctx.addIssue({ code: 'custom', message: mixedScriptsMessage(label, mixed) });
  };
}
