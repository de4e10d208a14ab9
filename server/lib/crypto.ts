import crypto from 'node:crypto';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value could not be opened: wrong key, altered bytes, or a value sealed for another purpose. */
export class DecryptionError extends Error {
  constructor(message = 'Stored secret could not be decrypted: the key is wrong or the data was altered') {
    super(message);
    this.name = 'DecryptionError';
  }
}

/**
 * AES-256-GCM with a fresh random 96-bit IV per value. The `context` (e.g. the setting's name) is
 * bound as associated data, so a sealed value copied to another place does not open there.
 * Sealed text: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plaintext: string, context: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext, or a DecryptionError: never garbage. */
  open(sealed: string, context: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== FORMAT) throw new DecryptionError('Stored secret is not in a known format');
    const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
      throw new DecryptionError('Stored secret is not in a known format');
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new DecryptionError();
    }
  }
}
