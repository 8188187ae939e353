// The IT rules of the policy module as the IT desk and the notifications use them (issue 17: one policy module, one
// registry): the IT queue's SQL separation of duties is the pure rule's (itWorkAllowedSql against
// separationOfDutiesRefusal, on stored rows), the acknowledgement rules follow the registry's IT lifecycles, and the
// modules that once re-wrote these rules or named the IT types by id no longer do.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES, FORM_TYPE_IDS, formTypesOfKind, itTicketType } from '../../domain/forms.js';
import { type RecordRow, loadRecordByRef } from '../requests/repo.js';
import { factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { awaitsAcknowledgement } from './it.js';
import { acknowledgementGatesIt, itWorkAllowedSql, separationOfDutiesRefusal } from './requests.js';

const INCIDENT = itTicketType('incident');
const RESET = itTicketType('password-reset');

describe('the acknowledgement rules follow the registry', () => {
  it('only the password-reset lifecycle waits for the line manager before IT; an incident is acknowledged as a view', () => {
    for (const t of FORM_TYPES) expect(acknowledgementGatesIt(t.formType), t.formType).toBe(t.itLifecycle === 'password-reset');
    const base = { line_manager_id: 7, data: {} };
    expect(awaitsAcknowledgement({ ...base, form_type: RESET })).toBe(true);
    expect(awaitsAcknowledgement({ ...base, form_type: RESET, data: { line_manager_acknowledgement: true } })).toBe(false);
    expect(awaitsAcknowledgement({ ...base, form_type: RESET, line_manager_id: null })).toBe(false); // straight to IT
    expect(awaitsAcknowledgement({ ...base, form_type: INCIDENT })).toBe(false);
  });

  it("an IT type's chain is the IT helpdesk step alone (so itWorkAllowedSql needs no 'decided another step' clause)", () => {
    for (const t of formTypesOfKind('it-ticket')) expect(FORM_TYPES.find((d) => d.formType === t)!.chain).toEqual(['it_helpdesk']);
  });
});

describe('the IT queue separation of duties in SQL is the pure rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 120_000);
  afterAll(async () => t?.close());

  it('on stored tickets: own ticket, a reset the IT officer acknowledged as line manager, one not yet acknowledged, a colleague’s', async () => {
    const f = factories(t);
    const it1 = await f.person({ kind: 'it' });
    const report = await f.person({ manager: it1 }); // reports to the IT officer
    const other = await f.person({});
    const recs = [
      await f.request({ owner: it1, formType: INCIDENT }),
      await f.request({ owner: report, formType: RESET, state: 'reset-pending-it' }),
      await f.request({ owner: report, formType: RESET }),
      await f.request({ owner: report, formType: INCIDENT }),
      await f.request({ owner: other, formType: RESET, state: 'reset-pending-it' }),
    ];
    const user = await f.authUser(it1);
    const rows = (await Promise.all(recs.map((r) => loadRecordByRef(t.db, r.request_id)))) as RecordRow[];
    const byRule = rows.filter((r) => separationOfDutiesRefusal(user, r, 'it_helpdesk') === null).map((r) => r.request_id);
    const sql = await t.db.query(`SELECT r.request_id FROM requests r WHERE r.request_id = ANY($2::text[]) AND ${itWorkAllowedSql('$1')}`, [
      user.id,
      rows.map((r) => r.request_id),
    ]);
    expect(sql.rows.map((r) => r.request_id).sort()).toEqual([...byRule].sort());
    // the rule itself: the own ticket and the acknowledged reset are separated, the other three are not
    expect(byRule.sort()).toEqual([rows[2], rows[3], rows[4]].map((r) => r.request_id).sort());
  });
});

describe('no module re-writes the rules or names an IT type by its id', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const server = path.join(here, '..');
  // Files this rule covers: the policy module, the IT desk, the notifications. A lifecycle name ('password-reset' is
  // also a lifecycle) compared with itLifecycleOf or passed to itTicketType is not a type id.
  const files = [
    ...readdirSync(here)
      .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
      .map((n) => path.join(here, n)),
    path.join(server, 'it-desk', 'service.ts'),
    path.join(server, 'it-desk', 'owner-password.ts'),
    path.join(server, 'it-desk', 'reset-retention.ts'),
    path.join(server, 'events', 'notify.ts'),
  ];
  const code = (file: string) =>
    readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
      .replace(/itLifecycleOf\([^)]*\)\s*[!=]==\s*'[a-z-]+'/g, '')
      .replace(/itTicketType\('[a-z-]+'\)/g, '');

  it.each(files.map((f) => [path.relative(server, f), f]))('%s names no form type id', (_name, file) => {
    const text = code(file);
    expect(FORM_TYPE_IDS.filter((id) => text.includes(`'${id}'`))).toEqual([]);
  });

  it('the IT queue and the owner-password check call the policy, not their own rule', () => {
    expect(code(path.join(server, 'it-desk', 'service.ts'))).not.toMatch(/line_manager_acknowledgement' = 'true'/);
    expect(code(path.join(server, 'it-desk', 'owner-password.ts'))).not.toMatch(/employee_user_id\s*===/);
    expect(code(path.join(server, 'events', 'notify.ts'))).toMatch(/awaitsAcknowledgement\(/);
  });
});
