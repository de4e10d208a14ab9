import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DecryptionError, SecretBox } from '../../../server/lib/crypto';

const key = () => crypto.randomBytes(32);

describe('SecretBox (AES-256-GCM)', () => {
  it('round-trips unicode text', () => {
    const box = new SecretBox(key());
    const secret = 'ghp_Ünïcødé-🔑-مفتاح-鍵';
    const sealed = box.seal(secret, 'settings:github.pat');
    expect(box.open(sealed, 'settings:github.pat')).toBe(secret);
  });

  it('never contains the plaintext and differs on every seal', () => {
    const box = new SecretBox(key());
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const a = box.seal(secret, 'ctx');
    const b = box.seal(secret, 'ctx');
    expect(a).not.toBe(b);
    for (const sealed of [a, b]) {
      expect(sealed).not.toContain(secret);
      expect(Buffer.from(sealed).includes(Buffer.from(secret))).toBe(false);
      expect(sealed).not.toContain(Buffer.from(secret).toString('base64'));
    }
  });

  it('fails loudly with a wrong key', () => {
    const sealed = new SecretBox(key()).seal('ghp_secret', 'ctx');
    expect(() => new SecretBox(key()).open(sealed, 'ctx')).toThrow(DecryptionError);
  });

  it('fails loudly when the bytes were altered or the value moved to another setting', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('ghp_secret', 'settings:a');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    const altered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    expect(() => box.open(altered, 'settings:a')).toThrow(DecryptionError);
    expect(() => box.open(sealed, 'settings:b')).toThrow(DecryptionError);
    expect(() => box.open('not-a-sealed-value', 'settings:a')).toThrow(DecryptionError);
  });

  it('refuses a key that is not 256 bits', () => {
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(/32-byte/);
  });
});
