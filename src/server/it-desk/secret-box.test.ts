// The reset-password key and AES-256-GCM sealing: key sources, the generated key file, round trips,
// and the refusals (tampering, another request's context, another key).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_KEY_FILE, passwordContext, resolveSecretKey, seal, unseal } from './secret-box.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'adminease-key-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('server key', () => {
  it('uses ADMINEASE_SECRET_KEY when set and rejects a key that is not 32 bytes', () => {
    const envKey = Buffer.alloc(32, 1).toString('base64');
    const k = resolveSecretKey({ dataDir: tmp(), envKey });
    expect(k.key.equals(Buffer.alloc(32, 1))).toBe(true);
    expect(k.id).toMatch(/^[0-9a-f]{8}$/);
    expect(() => resolveSecretKey({ dataDir: tmp(), envKey: Buffer.alloc(16).toString('base64') })).toThrow(/32 random bytes/);
  });

  it('otherwise generates a key file once (mode 0600) and reads it back', () => {
    const dir = tmp();
    let generated = 0;
    const a = resolveSecretKey({
      dataDir: path.join(dir, 'nested'),
      onGenerated: () => {
        generated += 1;
      },
    });
    const file = path.join(dir, 'nested', SECRET_KEY_FILE);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = resolveSecretKey({
      dataDir: path.join(dir, 'nested'),
      onGenerated: () => {
        generated += 1;
      },
    });
    expect(b.key.equals(a.key)).toBe(true);
    expect(generated).toBe(1);
    expect(resolveSecretKey({ dataDir: tmp() }).id).not.toBe(a.id);
  });
});

describe('seal / unseal', () => {
  const k = resolveSecretKey({ dataDir: tmp(), envKey: Buffer.alloc(32, 9).toString('base64') });
  const other = resolveSecretKey({ dataDir: tmp(), envKey: Buffer.alloc(32, 8).toString('base64') });
  const ctx = passwordContext('EMP-1001');

  it('round-trips, with a fresh IV each time and no plaintext in the result', () => {
    const a = seal(k, 'Pässword#1 ✓', ctx);
    const b = seal(k, 'Pässword#1 ✓', ctx);
    expect(a).not.toBe(b);
    expect(a).not.toContain('Pässword');
    expect(a.split('.')[1]).toBe(k.id);
    expect(unseal(k, a, ctx)).toBe('Pässword#1 ✓');
  });

  it('refuses another context, a tampered value, another key and an unknown format', () => {
    const sealed = seal(k, 'secret-value', ctx);
    expect(() => unseal(k, sealed, passwordContext('EMP-1002'))).toThrow(/could not be decrypted/);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    parts[4] = flipped.toString('base64url');
    expect(() => unseal(k, parts.join('.'), ctx)).toThrow(/could not be decrypted/);
    expect(() => unseal(other, sealed, ctx)).toThrow(/another server key/);
    expect(() => unseal(k, 'plain text', ctx)).toThrow(/unknown format/);
  });
});
