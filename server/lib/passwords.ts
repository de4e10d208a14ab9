import type Argon2 from 'argon2';

/** argon2 (a native addon), loaded by the first hash or check rather than by every start. */
let argon2: Promise<typeof Argon2> | undefined;
const loadArgon2 = () => (argon2 ??= import('argon2').then((module) => module.default));

export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** Argon2id at OWASP's recommended minimum (m=19456 KiB, t=2, p=1): what every server uses. */
export const OWASP_PASSWORD_COST: PasswordCost = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

let cost: PasswordCost = OWASP_PASSWORD_COST;

/**
 * Changes the cost of new hashes. Only the test suites call it (their setup file), so that thousands
 * of sign-ins do not spend minutes of CPU; a hash carries its own parameters, so verification follows.
 */
export function setPasswordCost(next: PasswordCost): void {
  cost = next;
}

export async function hashPassword(password: string): Promise<string> {
  const library = await loadArgon2();
  return library.hash(password, { type: library.argon2id, ...cost });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const library = await loadArgon2();
  try {
    return await library.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check so unknown usernames cannot be told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}
