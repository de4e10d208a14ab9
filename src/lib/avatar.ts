/** Avatar initials and colour (docs/reference.md section 2, "Avatar"). */

export const AVATAR_COLORS = [
  '#1976d2',
  '#dc004e',
  '#388e3c',
  '#f57c00',
  '#7b1fa2',
  '#0097a7',
  '#c2185b',
  '#5d4037',
] as const;

/** First letters of the first two words of the full name, else the first two letters of the username; upper case. */
export function initials(fullName: string | null | undefined, username: string): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((word) => Array.from(word)[0])
      .join('')
      .toUpperCase();
  }
  const letters = Array.from(username.trim()).slice(0, 2).join('');
  return letters ? letters.toUpperCase() : '?';
}

/** One of 8 colours, chosen by the username's first character. */
export function avatarColor(username: string): string {
  const code = username.codePointAt(0) ?? 0;
  return AVATAR_COLORS[code % AVATAR_COLORS.length];
}
