// CSV import and export of people: a dry run tells per row what would happen and changes nothing; an import with any
// bad row applies nothing; a good one applies every row in one transaction (managers also from the same file); an
// export imports back unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, type Person, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
let admin: ApiClient;
let adminPerson: Person;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  adminPerson = await f.person({ kind: 'admin' });
  admin = await f.login(adminPerson);
});
afterAll(async () => {
  await t?.close();
});

async function upload(csv: string, dryRun: boolean, token = admin.token) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/people/import${dryRun ? '?dry_run=1' : ''}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    payload: csv,
  });
  return { status: res.statusCode, body: res.json() };
}

const HEADER = 'email,first_name,last_name,employee_code,department,role,user_type,manager,hr_contact,join_date,annual_leave_total,active';
const tag = () => Date.now().toString(36);

describe('CSV import', () => {
  it('dry run: per row create, update, unchanged or error with the reasons, and nothing changes', async () => {
    const { employee, manager, hr } = await f.team();
    const s = tag();
    const csv = [
      HEADER,
      // a new manager, and a new report of that manager further down the same file
      `lead.${s}@example.test,Lena,Lead,L-${s},ENG,Team Lead,line_manager,${manager.email},${hr.employee_code},2025-01-06,12,true`,
      `dev.${s}@example.test,Dan,Dev,D-${s},ENG,Software Engineer,employee,L-${s},${hr.email},2025-02-03,12,`,
      // the existing employee: a new leave allowance; then the manager exactly as stored
      `${employee.email},${employee.first_name},${employee.last_name},${employee.employee_code},ENG,Employee,employee,${manager.employee_code},${hr.employee_code},2022-04-01,15,true`,
      `${manager.email},${manager.first_name},${manager.last_name},${manager.employee_code},ENG,Department Manager,line_manager,,,2022-04-01,12,true`,
      // errors: taken e-mail, unknown manager, bad date, a manager who may not manage, a cycle
      `${employee.email.toUpperCase()},Dup,Mail,X1-${s},ENG,Employee,employee,,,,,`,
      `ghost.${s}@example.test,Gus,Ghost,X2-${s},ENG,Employee,employee,nobody@example.test,,,,`,
      `date.${s}@example.test,Dee,Date,X3-${s},ENG,Employee,employee,,,2025-02-30,,`,
      `sub.${s}@example.test,Sue,Sub,X4-${s},ENG,Employee,employee,D-${s},,,,`,
      `c1.${s}@example.test,Cy,One,C1-${s},ENG,Team Lead,line_manager,C2-${s},,,,`,
      `c2.${s}@example.test,Cy,Two,C2-${s},ENG,Team Lead,line_manager,C1-${s},,,,`,
    ].join('\n');
    const before = await stateFingerprint(t);
    const res = await upload(csv, true);
    expect(res.status).toBe(200);
    const byCode = Object.fromEntries(res.body.rows.map((r: any) => [r.employee_code, r]));
    expect(byCode[`L-${s}`]).toEqual({ line: 2, action: 'create', employee_code: `L-${s}`, errors: [] });
    expect(byCode[`D-${s}`], JSON.stringify(byCode[`D-${s}`])).toMatchObject({ action: 'create' });
    expect(byCode[employee.employee_code].action).toBe('update');
    expect(byCode[manager.employee_code].action).toBe('unchanged');
    expect(byCode[`X1-${s}`].errors[0]).toContain('is already used by');
    expect(byCode[`X2-${s}`].errors).toEqual(['Unknown manager nobody@example.test']);
    expect(byCode[`X3-${s}`].errors[0]).toContain('join_date must be a date');
    expect(byCode[`X4-${s}`].errors[0]).toContain('cannot be a line manager');
    expect(byCode[`C1-${s}`].errors[0]).toContain('Reporting cycle');
    expect(res.body.summary).toEqual({ create: 2, update: 1, unchanged: 1, error: 6 });
    expect(await stateFingerprint(t)).toEqual(before);

    // applying the same file: refused as a whole, nothing written
    const apply = await upload(csv, false);
    expect(apply.status).toBe(400);
    expect(apply.body.error).toBe('6 rows have errors; nothing was imported');
    expect(apply.body.rows).toHaveLength(10);
    expect(await stateFingerprint(t)).toEqual(before);
  });

  it('applies a good file in one transaction, managers from the same file included, audited', async () => {
    const { employee, manager, hr } = await f.team();
    const pending = await f.request({ owner: employee, formType: 'leave-request' });
    const s = tag();
    const csv = [
      HEADER,
      `dev.${s}@example.test,Dan,Dev,D-${s},ENG,Software Engineer,employee,L-${s},${hr.email},2025-02-03,12,`,
      `lead.${s}@example.test,Lena,Lead,L-${s},ENG,Team Lead,line_manager,${manager.email},${hr.employee_code},2025-01-06,12,true`,
      `${employee.email},${employee.first_name},${employee.last_name},${employee.employee_code},ENG,Employee,employee,L-${s},${hr.employee_code},2022-04-01,15,true`,
    ].join('\r\n');
    const res = await upload(csv, false);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ applied: true, summary: { create: 2, update: 1, unchanged: 0, error: 0 } });
    const rows = (
      await t.db.query(
        `SELECT u.employee_code, m.employee_code AS manager, u.annual_leave_total, u.active FROM users u LEFT JOIN users m ON m.id = u.manager_id
          WHERE u.employee_code = ANY($1) ORDER BY u.employee_code`,
        [[`D-${s}`, `L-${s}`, employee.employee_code]],
      )
    ).rows;
    expect(rows).toEqual([
      { employee_code: `D-${s}`, manager: `L-${s}`, annual_leave_total: 12, active: true },
      { employee_code: employee.employee_code, manager: `L-${s}`, annual_leave_total: 15, active: true },
      { employee_code: `L-${s}`, manager: manager.employee_code, annual_leave_total: 12, active: true },
    ]);
    // the employee's pending step followed their new manager, with a history row
    const req = (
      await t.db.query(
        'SELECT r.line_manager_id, u.employee_code FROM requests r JOIN users u ON u.id = r.line_manager_id WHERE r.request_id = $1',
        [pending.request_id],
      )
    ).rows[0];
    expect(req.employee_code).toBe(`L-${s}`);
    const audit = (await t.db.query(`SELECT action, target_id FROM admin_audit WHERE actor_id = $1 ORDER BY id`, [adminPerson.id])).rows;
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['person.create', 'person.update', 'people.import']));
  });

  it('refuses a file it cannot read, an unknown column, and non-administrators', async () => {
    expect((await upload('employee_code,salary\nX,1\n', true)).body.error).toContain('Unknown column salary');
    expect((await upload('email,first_name\n"unterminated,x\n', true)).status).toBe(400);
    expect((await upload(`${HEADER}\n`, true)).body.error).toContain('no rows');
    const employee = await f.login(await f.person());
    expect((await upload(`${HEADER}\n`, true, employee.token)).status).toBe(403);
  });
});

describe('CSV import: edge cases', () => {
  it('reads a UTF-8 file with a byte-order mark and non-ASCII names, with a manager further down the same file named by e-mail', async () => {
    const { manager, hr } = await f.team();
    const s = tag();
    const lead = `zoe.${s}@example.test`;
    const csv =
      '\uFEFF' +
      [
        HEADER,
        // the report first, naming a manager who is only created two lines down, by e-mail (any case)
        `jose.${s}@example.test,José,Núñez-Åström,U1-${s},ENG,Software Engineer,employee,${lead.toUpperCase()},${hr.email},2025-03-03,12,true`,
        `li.${s}@example.test,李,小龍,U2-${s},ENG,Software Engineer,employee,${lead},,2025-03-03,12,true`,
        `${lead},Zoë,Ølstrøm 😀,U3-${s},ENG,Team Lead,line_manager,${manager.email},${hr.employee_code},2025-01-06,12,true`,
      ].join('\r\n');
    const dry = await upload(csv, true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.rows).toEqual([
      { line: 2, action: 'create', employee_code: `U1-${s}`, errors: [] },
      { line: 3, action: 'create', employee_code: `U2-${s}`, errors: [] },
      { line: 4, action: 'create', employee_code: `U3-${s}`, errors: [] },
    ]);
    const res = await upload(csv, false);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toMatchObject({ create: 3, error: 0 });
    const stored = async (code: string) =>
      (
        await t.db.query(
          `SELECT u.email, u.first_name, u.last_name, m.employee_code AS manager FROM users u LEFT JOIN users m ON m.id = u.manager_id
            WHERE u.employee_code = $1`,
          [code],
        )
      ).rows[0];
    expect(await stored(`U1-${s}`)).toEqual({
      email: `jose.${s}@example.test`,
      first_name: 'José',
      last_name: 'Núñez-Åström',
      manager: `U3-${s}`,
    });
    expect(await stored(`U2-${s}`)).toMatchObject({ first_name: '李', last_name: '小龍', manager: `U3-${s}` });
    expect(await stored(`U3-${s}`)).toEqual({ email: lead, first_name: 'Zoë', last_name: 'Ølstrøm 😀', manager: manager.employee_code });
    // the first column's header was read as `email` (not a BOM-prefixed unknown column), and the names go out as they came in
    const exported = await admin.get('/api/admin/people/export.csv');
    expect(exported.text).toContain(`jose.${s}@example.test,José,Núñez-Åström,U1-${s}`);
    const back = await upload(exported.text, true);
    expect(back.status).toBe(200);
    expect(back.body.rows.find((r: any) => r.employee_code === `U3-${s}`)).toMatchObject({ action: 'unchanged' });
  });

  it('refuses two rows of one file that clash on e-mail or employee code, and applies nothing', async () => {
    const s = tag();
    const csv = [
      HEADER,
      `same.${s}@example.test,Ann,First,K1-${s},ENG,Employee,employee,,,,,`,
      `SAME.${s}@example.test,Ann,Second,K2-${s},ENG,Employee,employee,,,,,`,
      `other.${s}@example.test,Bob,First,K3-${s},ENG,Employee,employee,,,,,`,
      `another.${s}@example.test,Bob,Second,K3-${s},ENG,Employee,employee,,,,,`,
      `fine.${s}@example.test,Cat,Fine,K4-${s},ENG,Employee,employee,,,,,`,
    ].join('\n');
    const before = await stateFingerprint(t);
    const dry = await upload(csv, true);
    expect(dry.status).toBe(200);
    const rows = dry.body.rows as Array<{ line: number; action: string; employee_code: string; errors: string[] }>;
    expect(rows.find((r) => r.line === 2)).toMatchObject({ action: 'create' });
    expect(rows.find((r) => r.line === 3)).toMatchObject({ action: 'error' });
    // The error names the line that holds the key, so the file can be fixed.
    expect(rows.find((r) => r.line === 3)!.errors.join(' ')).toMatch(
      /e-mail .* is already used by Ann First \(K1-.*\) on line 2 of this file/i,
    );
    expect(rows.find((r) => r.line === 5)).toMatchObject({ action: 'error', employee_code: `K3-${s}` });
    expect(rows.find((r) => r.line === 5)!.errors.join(' ')).toMatch(/appears on an earlier line of this file \(line 4\)/);
    expect(rows.find((r) => r.line === 6)).toMatchObject({ action: 'create' });
    const res = await upload(csv, false);
    expect(res.status).toBe(400);
    expect(await stateFingerprint(t)).toEqual(before);
  });
});

describe('CSV export', () => {
  it('exports every person with the import columns, and the export imports back unchanged', async () => {
    const odd = await f.person({ first_name: '=SUM(A1)', last_name: 'Comma, "Quoted"' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/people/export.csv',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(`${HEADER},hr_id`);
    const count = (await t.db.query('SELECT count(*)::int AS n FROM users')).rows[0].n;
    expect(lines).toHaveLength(count + 1);
    const oddLine = lines.find((l) => l.includes(odd.employee_code))!;
    expect(oddLine).toContain(`'=SUM(A1),"Comma, ""Quoted"""`); // no formula runs in a spreadsheet
    const back = await upload(res.body, true);
    expect(back.status).toBe(200);
    expect(back.body.summary).toEqual({ create: 0, update: 0, unchanged: count, error: 0 });
  });
});
