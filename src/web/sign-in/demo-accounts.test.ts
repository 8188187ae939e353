// Keeps the sign-in screen's Demo Credentials copy equal to the shared demo organisation.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_GROUPS, DEMO_PASSWORD, demoAccountsIn } from './demo-accounts';

const here = path.dirname(fileURLToPath(import.meta.url));
// The repo's copy of shared/seed/demo-org.json (src/server/db/seed.test.ts keeps the two equal).
const seedPath = path.resolve(here, '../../server/db/demo-org.json');
const seed = JSON.parse(readFileSync(seedPath, 'utf8')) as {
  demo_password: string;
  users: { email: string; first_name: string; last_name: string; role: string; group: string }[];
};

describe('demo accounts', () => {
  it('lists every account of demo-org.json with its name, role, email and group, in the seed order', () => {
    expect(DEMO_ACCOUNTS).toEqual(
      seed.users.map((u) => ({ group: u.group, name: `${u.first_name} ${u.last_name}`, role: u.role, email: u.email })),
    );
  });

  it('uses the seed demo password', () => {
    expect(DEMO_PASSWORD).toBe(seed.demo_password);
  });

  it("has the spec's eight groups and the administrators, each holding at least one account, and no others", () => {
    expect(DEMO_GROUPS).toEqual([
      'Line Managers',
      'HR Staff',
      'Finance Staff',
      'IT Staff',
      'Operations Staff',
      'Marketing Staff',
      'Legal Staff',
      'Employees',
      'Administrators',
    ]);
    expect(new Set(seed.users.map((u) => u.group))).toEqual(new Set(DEMO_GROUPS));
    for (const group of DEMO_GROUPS) expect(demoAccountsIn(group).length).toBeGreaterThan(0);
  });
});
