import { describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../../server/lib/passwords';

/** A copy of the module as a server loads it: the suite's setup file lowered the cost of the shared one. */
async function freshPasswords() {
  vi.resetModules();
  return import('../../../server/lib/passwords');
}

describe('password hashing cost', () => {
  it("is Argon2id at OWASP's minimum (m=19456 KiB, t=2, p=1) unless a test lowers it", async () => {
    const server = await freshPasswords();
    const hash = await server.hashPassword('Correct-horse-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await server.verifyPassword(hash, 'Correct-horse-1')).toBe(true);
    expect(await server.verifyPassword(hash, 'Wrong-horse-1')).toBe(false);
  });

  it('verifies a hash by the parameters it carries, so the lowered test hashes check on a real server', async () => {
    const cheap = await hashPassword('Correct-horse-1');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    const server = await freshPasswords();
    expect(await server.verifyPassword(cheap, 'Correct-horse-1')).toBe(true);
    expect(await server.verifyPassword(cheap, 'Wrong-horse-1')).toBe(false);
  });
});
