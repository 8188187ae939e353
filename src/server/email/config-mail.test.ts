// With SMTP on, e-mails carry links (the request, Approve / Reject): the start refuses without ADMINEASE_PUBLIC_URL,
// or with one on a loopback address that would open nothing on the recipients' devices (unless MAIL_LOCAL_LINKS=1).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

const smtp = { SMTP_URL: 'smtp://mail.example.org:587', HOME: '/home/ops' };

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('the address of the links in e-mails', () => {
  it('is required when SMTP is configured', () => {
    expect(problem(smtp)).toContain('ADMINEASE_PUBLIC_URL must be set when SMTP is configured');
    expect(problem({ SMTP_HOST: 'mail.example.org', HOME: '/home/ops' })).toContain('ADMINEASE_PUBLIC_URL must be set');
    expect(loadConfig({ HOME: '/home/ops' }).mail).toBeNull(); // no SMTP: nothing needed
  });

  it('may not be a loopback address, unless MAIL_LOCAL_LINKS=1 says so', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000/', 'http://[::1]:3000', 'http://app.localhost']) {
      expect(problem({ ...smtp, ADMINEASE_PUBLIC_URL: url }), url).toMatch(/opens nothing on the recipients' devices/);
    }
    expect(loadConfig({ ...smtp, ADMINEASE_PUBLIC_URL: 'http://localhost:3000', MAIL_LOCAL_LINKS: '1' }).mail?.publicUrl).toBe(
      'http://localhost:3000',
    );
  });

  it('is taken without a trailing slash, with the link lifetime and digest hour', () => {
    const c = loadConfig({ ...smtp, ADMINEASE_PUBLIC_URL: 'https://adminease.example.com/', EMAIL_DIGEST_HOUR: '17' });
    expect(c.mail).toMatchObject({ publicUrl: 'https://adminease.example.com', actionTtlHours: 72, digestHour: 17 });
    expect(problem({ ...smtp, ADMINEASE_PUBLIC_URL: 'https://a.example.com', EMAIL_ACTION_TTL_HOURS: '0' })).toContain(
      'EMAIL_ACTION_TTL_HOURS',
    );
  });
});
