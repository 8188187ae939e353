// The strength rules of a password someone chooses (invitation, first-run set-up, change of password). The web
// shows them as a checklist while typing; the server enforces the same rules (src/server/accounts/service.ts).

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Whose password it is: a password must not contain their name or the name part of their e-mail. */
export interface PasswordOwner {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}

export interface PasswordRule {
  id: 'length' | 'mix' | 'personal' | 'common';
  text: string;
  ok: (password: string, owner: PasswordOwner) => boolean;
}

/** Passwords too well known to allow (compared without case), the published demo password among them. */
const COMMON = new Set(
  [
    'demo@12345',
    'password123!',
    'password1234',
    'qwertyuiop12',
    'qwerty123456',
    '123456789012',
    'letmein12345',
    'welcome12345',
    'iloveyou1234',
    'adminadmin12',
    'changeme1234',
    'administrator1',
  ].map((p) => p.toLowerCase()),
);
const COMMON_PARTS = ['password', 'adminease', 'qwerty', '123456789', 'letmein', 'changeme'];

/** The parts of the owner's name and e-mail (3 letters or more) that a password must not contain. */
function personalParts(owner: PasswordOwner): string[] {
  const local = (owner.email ?? '').split('@')[0] ?? '';
  return [local, ...local.split(/[._+-]/), owner.first_name ?? '', owner.last_name ?? '']
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length >= 3);
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'length',
    text: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    ok: (p) => [...p].length >= PASSWORD_MIN_LENGTH && [...p].length <= PASSWORD_MAX_LENGTH,
  },
  { id: 'mix', text: 'Letters and at least one number or symbol', ok: (p) => /\p{L}/u.test(p) && /[^\p{L}\s]/u.test(p) },
  {
    id: 'personal',
    text: 'Does not contain your name or e-mail',
    ok: (p, owner) => !personalParts(owner).some((part) => p.toLowerCase().includes(part)),
  },
  {
    id: 'common',
    text: 'Not a common or published password',
    ok: (p) => !COMMON.has(p.toLowerCase()) && !COMMON_PARTS.some((part) => p.toLowerCase().includes(part)),
  },
];

/** The texts of the rules `password` breaks (empty: strong enough). */
export function passwordProblems(password: string, owner: PasswordOwner = {}): string[] {
  return PASSWORD_RULES.filter((r) => !r.ok(password, owner)).map((r) => r.text);
}
