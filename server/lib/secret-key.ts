import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';

/**
 * The server's master secret: SECRET_KEY when set, else a random key kept in DATA_DIR with mode 0600
 * so sessions and encrypted settings survive restarts. Purposes get their own derived keys.
 */
export class SecretKeys {
  private constructor(private readonly master: Buffer) {}

  static load(secretKey: string | undefined, dataDir: string): SecretKeys {
    if (secretKey) return new SecretKeys(Buffer.from(secretKey, 'utf8'));
    const file = path.join(dataDir, KEY_FILE);
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      return new SecretKeys(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const key = crypto.randomBytes(32);
    // 'wx' fails if another process created the file first; then use theirs.
    try {
      fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
      return new SecretKeys(key);
    } catch {
      return new SecretKeys(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
    }
  }

  /** A 32-byte key for one purpose (HKDF-SHA256), e.g. 'session-tokens' or 'settings-encryption'. */
  derive(purpose: string): Buffer {
    return Buffer.from(crypto.hkdfSync('sha256', this.master, Buffer.alloc(0), purpose, 32));
  }
}
