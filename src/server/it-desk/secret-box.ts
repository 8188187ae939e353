// Encryption at rest for the new passwords IT sets on password-reset requests: AES-256-GCM with a server key.
// The key is ADMINEASE_SECRET_KEY (base64 of 32 bytes) or, when unset, a key generated once into
// <data folder>/secret.key (mode 0600). Each ciphertext names the key it was made with (a short key id), so a
// server started with another key says so plainly instead of failing obscurely.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HttpError } from '../http/errors.js';

export const SECRET_KEY_ENV = 'ADMINEASE_SECRET_KEY';
export const SECRET_KEY_FILE = 'secret.key';
const VERSION = 'v1';

export interface SecretKey {
  key: Buffer;
  /** First 8 hex digits of SHA-256(key): stored with each ciphertext, never enough to recover the key. */
  id: string;
  /** Where the key came from (env or the key file's path), for messages. */
  source: string;
}

export interface SecretKeySettings {
  /** The data folder (config.dataDir): home of the generated key file. */
  dataDir: string;
  /** ADMINEASE_SECRET_KEY, when set. */
  envKey?: string;
  /** Called once when a key file is generated (e.g. to log where, and to advise setting the env key). */
  onGenerated?: (file: string) => void;
}

const cache = new Map<string, SecretKey>();

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function decodeKey(text: string, source: string): SecretKey {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) {
    throw new Error(`${source} must be the base64 encoding of 32 random bytes (e.g. \`openssl rand -base64 32\`); it decodes to ${key.length} bytes`);
  }
  return { key, id: keyIdOf(key), source };
}

/** The server key: the env key when set, else the data folder's key file, created on first use. */
export function resolveSecretKey(settings: SecretKeySettings): SecretKey {
  const env = settings.envKey?.trim();
  if (env) {
    const hit = cache.get(`env:${env}`);
    if (hit) return hit;
    const k = decodeKey(env, SECRET_KEY_ENV);
    cache.set(`env:${env}`, k);
    return k;
  }
  const file = path.join(path.resolve(settings.dataDir), SECRET_KEY_FILE);
  const hit = cache.get(`file:${file}`);
  if (hit) return hit;
  let k: SecretKey;
  try {
    k = decodeKey(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // 'wx': of several processes starting at once exactly one creates the file; the others read it.
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
      settings.onGenerated?.(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    k = decodeKey(readFileSync(file, 'utf8'), file);
  }
  cache.set(`file:${file}`, k);
  return k;
}

/**
 * Encrypts `plaintext`, bound to `context` (authenticated, not stored): a ciphertext copied to another
 * context does not decrypt. Format: v1.<key id>.<iv>.<tag>.<ciphertext>, base64url parts.
 */
export function seal(k: SecretKey, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k.key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, k.id, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
}

/** Decrypts a value made by seal with the same key and context; a clear 500-class error otherwise. */
export function unseal(k: SecretKey, sealed: string, context: string): string {
  const parts = String(sealed).split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new HttpError(500, 'The stored password has an unknown format');
  const [, id, iv, tag, ct] = parts;
  if (id !== k.id) {
    throw new HttpError(500, `The stored password was encrypted with another server key (id ${id}; this server uses ${k.id}). Configure the same ${SECRET_KEY_ENV} on every instance, or ask IT to set the password again.`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', k.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new HttpError(500, 'The stored password could not be decrypted (it was altered or belongs to another request)');
  }
}

/** The authenticated context of a password-reset ciphertext: the owner's employee code. */
export const passwordContext = (employeeCode: string) => `password-reset:${employeeCode}`;
