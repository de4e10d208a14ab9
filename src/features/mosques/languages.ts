/** docs/reference.md section 3, Mosque: the language options; free text may add custom codes. */
export const LANGUAGE_OPTIONS = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'Arabic' },
  { code: 'ur', name: 'Urdu' },
  { code: 'bn', name: 'Bengali' },
  { code: 'hi', name: 'Hindi' },
  { code: 'ps', name: 'Pashto' },
  { code: 'fr', name: 'French' },
  { code: 'es', name: 'Spanish' },
] as const;

export const LANGUAGE_CODES: readonly string[] = LANGUAGE_OPTIONS.map((option) => option.code);

const NAMES = new Map<string, string>(LANGUAGE_OPTIONS.map((option) => [option.code, option.name]));

/** "English" for en; a custom code reads as itself. */
export function languageName(code: string): string {
  return NAMES.get(code) ?? code;
}

/** "English (en)" in the picker; a custom code reads as itself. */
export function languageLabel(code: string): string {
  const name = NAMES.get(code);
  return name ? `${name} (${code})` : code;
}

/** A typed code, tidied: trimmed, its language part lower-cased ("EN" -> "en", "pt-BR" stays). */
export function normalizeLanguageCode(text: string): string {
  return text.trim().replace(/^[A-Za-z]+/, (base) => base.toLowerCase());
}
