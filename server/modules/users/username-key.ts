/**
 * How usernames are compared. Two names are the same account name when they are equal after NFKC
 * normalization and case folding (NFC/NFD spellings, fullwidth letters, "ADMIN"); a new name is
 * refused when it only differs from an existing one by characters that look alike, so nobody can pass
 * for someone else in the user list or the activity log. Which characters look alike is Unicode's own
 * confusables data (UTS #39), as the unhomoglyph package carries it: a hand-made table could not keep up.
 */
import unhomoglyph from 'unhomoglyph';

/** The stored key (users.username_key) and the lookup key of a sign-in. */
export function usernameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** UTS #39's skeleton: each character replaced by the prototype it is confusable with, between NFD normalizations. */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * The name as it looks: the skeleton of its usernameKey with marks dropped (an added accent is a
 * lookalike too), case-folded and taken again, so that a prototype in capitals ("Ꭺ" is "A") meets
 * its small letter, and "rn" and "m" are one.
 */
export function usernameSkeleton(name: string): string {
  const bare = (text: string) => text.replace(/\p{M}/gu, '');
  return bare(skeleton(bare(skeleton(bare(usernameKey(name).normalize('NFD')))).toLowerCase()));
}
