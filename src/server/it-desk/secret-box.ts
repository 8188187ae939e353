// Encryption at rest for the new passwords IT sets on password-reset requests: AES-256-GCM with a server key.
// The key is ADMINEASE_SECRET_KEY (base64 of 32 bytes) or, when unset, a key generated once into a key file
// outside the data folder (ADMINEASE_SECRET_KEY_FILE, by default the user's ~/.config/adminease/secret.key;
// mode 0600), so that a copy of the data folder alone decrypts nothing. A key an older version generated into
// <data folder>/secret.key is moved there on start. Each ciphertext names the key it was made with (a short key
// id), so a server started with another key says so plainly instead of failing obscurely.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HttpError } from '../http/errors.js';

export const SECRET_KEY_ENV = 'ADMINEASE_SECRET_KEY';
/** The name of the key file older versions generated inside the data folder. */
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
  /** The data folder (config.dataDir): where older versions kept the key file (moved away on start). */
  dataDir: string;
  /** Where the generated key lives (config.secretKeyFile); by default outside the data folder. */
  keyFile?: string;
  /** Called when a key file is moved out of the data folder, or when it could not be (both differ). */
  onMoved?: (from: string, to: string) => void;
  onWarn?: (message: string) => void;
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
    throw new Error(
      `${source} must be the base64 encoding of 32 random bytes (e.g. \`openssl rand -base64 32\`); it decodes to ${key.length} bytes`,
    );
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
  const legacy = path.join(path.resolve(settings.dataDir), SECRET_KEY_FILE);
  const file = path.resolve(settings.keyFile ?? legacy);
  const hit = cache.get(`file:${file}`);
  if (hit) return hit;
  const inUse = moveLegacyKey(legacy, file, settings);
  if (inUse !== file) {
    const k = decodeKey(readFileSync(inUse, 'utf8'), inUse);
    cache.set(`file:${file}`, k);
    return k;
  }
  let k: SecretKey;
  try {
    k = decodeKey(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // Written whole to a private temporary file, then linked into place: of several processes starting at once
      // exactly one creates the key file (link fails if it exists), and nobody ever reads a half-written key.
      createWhole(file, `${randomBytes(32).toString('base64')}\n`);
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
 * Creates `file` with `text`, whole: written to a private temporary file, then linked into place. Of several
 * processes doing it at once exactly one succeeds (the others get EEXIST), and nobody reads a half-written file.
 */
function createWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, text, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(tmp, file);
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Moves a key file an older version generated in the data folder to `file` (which is where the key is kept from
 * now on) and answers the file to read the key from. When `file` already holds another key (e.g. another
 * installation of the same user), the old file stays in use where it is, with a warning: the passwords sealed
 * with it must stay readable.
 */
function moveLegacyKey(legacy: string, file: string, settings: SecretKeySettings): string {
  if (legacy === file) return file;
  let text: string;
  try {
    text = readFileSync(legacy, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw err;
  }
  const removeLegacy = () => {
    try {
      unlinkSync(legacy);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    createWhole(file, text);
    removeLegacy();
    settings.onMoved?.(legacy, file);
    return file;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (readFileSync(file, 'utf8').trim() === text.trim()) {
    removeLegacy(); // another instance moved it at the same time, or it was copied by hand
    settings.onMoved?.(legacy, file);
    return file;
  }
  settings.onWarn?.(
    `the key encrypting reset passwords is still ${legacy}, inside the data folder: ${file} already holds another key. Set ADMINEASE_SECRET_KEY_FILE to a path outside the data folder for this installation and move ${legacy} there`,
  );
  return legacy;
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
    throw new HttpError(
      500,
      `The stored password was encrypted with another server key (id ${id}; this server uses ${k.id}). Configure the same ${SECRET_KEY_ENV} on every instance, or ask IT to set the password again.`,
    );
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
