/**
 * How usernames are compared. Two names are the same account name when they are equal after NFKC
 * normalization and case folding (NFC/NFD spellings, fullwidth letters, "ADMIN"); a new name is
 * refused when it only differs from an existing one by letters that look alike (Cyrillic "а" for
 * Latin "a"), so nobody can pass for someone else in the user list or the activity log.
 */

/** The stored key (users.username_key) and the lookup key of a sign-in. */
export function usernameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** Cyrillic and Greek letters (lower case, after usernameKey) drawn like a Latin letter or digit. */
const LOOKALIKES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g', ı: 'i',
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j',
};

/** The name as it looks: usernameKey with lookalike letters replaced, marks dropped, and 0/1 read as o/l. */
export function usernameSkeleton(name: string): string {
  const folded = usernameKey(name).normalize('NFD').replace(/\p{M}/gu, '');
  return [...folded].map((char) => LOOKALIKES[char] ?? char).join('').replaceAll('0', 'o').replaceAll('1', 'l');
}
