// The people routes of the admin API (issue 18): list and search, create, read, edit, deactivate, CSV import and
// export, and the role preview. Thin: the rules are people.ts, deactivate.ts and csv.ts.
import type { AuditAction } from '../../domain/audit-actions.js';
import { isIsoDate } from '../../domain/business-time.js';
import { rolePreview } from '../../domain/people.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../http/errors.js';
import { parsePeopleCsv, peopleCsv } from './csv.js';
import { deactivatePerson } from './deactivate.js';
import { type PersonFields, applyPlan, loadOrg, personJson, plan, savePerson, withOrg } from './people.js';
import { PageQuery } from './schemas.js';

const IMPORT_ACTION: AuditAction = 'people.import';

const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

const text = (name: string, max = 100) =>
  z
    .string({ message: `${name} must be text` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} can have at most ${max} characters`);
const ref = (name: string) =>
  z
    .string({ message: `${name} must be an e-mail or an employee code` })
    .trim()
    .max(320)
    .nullish();

const PersonSchema = z.strictObject({
  email: text('email', 320).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'email must be an e-mail address'),
  first_name: text('first_name'),
  last_name: text('last_name'),
  employee_code: text('employee_code', 40).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'employee_code may have letters, digits, . _ and - only'),
  department: z.string().trim().max(20).nullish(),
  role: text('role'),
  user_type: text('user_type', 40),
  hr_id: z.string().trim().max(40).nullish(),
  manager: ref('manager'),
  hr_contact: ref('hr_contact'),
  join_date: z
    .string()
    .trim()
    .refine((v) => isIsoDate(v), 'join_date must be a date (YYYY-MM-DD)')
    .nullish(),
  annual_leave_total: z
    .number({ message: 'annual_leave_total must be a number' })
    .min(0, 'annual_leave_total cannot be negative')
    .max(365, 'annual_leave_total can be at most 365')
    .multipleOf(0.5, 'annual_leave_total is whole or half days')
    .optional(),
  active: z.boolean({ message: 'active must be true or false' }).optional(),
});
const PatchSchema = PersonSchema.partial();
const CodeParams = z.object({ employeeCode: z.string().max(40) });
const ListQuery = z.object({
  q: z.string().trim().max(200).optional(),
  department: z.string().trim().max(20).optional(),
  role: z.string().trim().max(100).optional(),
  active: z.enum(['true', 'false'], { message: 'active must be true or false' }).optional(),
  ...PageQuery,
});
const PreviewQuery = z.object({ role: text('role'), user_type: text('user_type', 40) });
const DeactivateSchema = z.object({
  reassign_to: z.string().trim().max(320).nullish(),
  pending_requests: z.enum(['withdraw', 'keep'], { message: "pending_requests must be 'withdraw' or 'keep'" }),
});
const ImportQuery = z.object({ dry_run: z.enum(['0', '1', 'true', 'false']).optional() });

/** Drops undefined keys (not given) and keeps null (cleared). */
const fieldsOf = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as PersonFields;

export default async function peopleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.ctx;
  // CSV uploads, here only (every other route takes JSON alone).
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT }, (_req, body, done) => done(null, String(body)));

  app.get('/api/admin/people', { schema: { querystring: ListQuery } }, async (req) => {
    const q = req.query;
    const where: string[] = [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (q.q) {
      const like = p(`%${q.q.replace(/[\\%_]/g, '\\$&')}%`);
      where.push(`(u.first_name || ' ' || u.last_name ILIKE ${like} OR u.email ILIKE ${like} OR u.employee_code ILIKE ${like})`);
    }
    if (q.department) where.push(`u.department_code = ${p(q.department.toUpperCase())}`);
    if (q.role) where.push(`lower(u.role) = lower(${p(q.role)})`);
    if (q.active) where.push(`u.active = ${p(q.active === 'true')}`);
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (await db.query(`SELECT count(*)::int AS n FROM users u ${filter}`, params)).rows[0].n as number;
    const ids = (
      await db.query(
        `SELECT u.id FROM users u ${filter} ORDER BY u.last_name, u.first_name, u.id LIMIT ${p(q.page_size)} OFFSET ${p((q.page - 1) * q.page_size)}`,
        params,
      )
    ).rows.map((r) => r.id as number);
    const org = await loadOrg(db);
    return {
      people: ids.map((id) => personJson(org.people.get(id)!, org.people, org.departments)),
      total,
      page: q.page,
      page_size: q.page_size,
    };
  });

  app.get('/api/admin/roles/preview', { schema: { querystring: PreviewQuery } }, async (req) =>
    rolePreview(req.query.role, req.query.user_type),
  );

  app.get('/api/admin/people/export.csv', async (_req, reply) => {
    const csv = peopleCsv(await loadOrg(db));
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="people.csv"');
    return csv;
  });

  app.post(
    '/api/admin/people/import',
    {
      schema: { querystring: ImportQuery, body: z.string({ message: 'Send the CSV file as text/csv' }), consumes: ['text/csv'] },
    },
    async (req) => {
      const dryRun = req.query.dry_run === '1' || req.query.dry_run === 'true';
      const parsed = parsePeopleCsv(req.body);
      const now = clock.now();
      return withOrg(db, async (c, org) => {
        const planned = plan(
          org,
          parsed.map((r) => r.input),
        );
        planned.forEach((row, i) => {
          if (parsed[i].errors.length) {
            row.errors.unshift(...parsed[i].errors);
            row.action = 'error';
          }
        });
        const rows = planned.map((r) => ({ line: r.line, action: r.action, employee_code: r.employee_code, errors: r.errors }));
        const count = (a: string) => rows.filter((r) => r.action === a).length;
        const summary = { create: count('create'), update: count('update'), unchanged: count('unchanged'), error: count('error') };
        if (dryRun) return { dry_run: true, applied: false, summary, rows };
        if (summary.error > 0)
          throw new HttpError(400, `${summary.error} row${summary.error > 1 ? 's have' : ' has'} errors; nothing was imported`, {
            dry_run: false,
            applied: false,
            summary,
            rows,
          });
        const { moved } = await applyPlan(c, req.user.id, org, planned, now);
        await c.query(
          `INSERT INTO admin_audit (at, actor_id, action, target_type, target_id, after) VALUES ($1, $2, $5, 'import', $3, $4)`,
          [now, req.user.id, now.toISOString(), JSON.stringify({ ...summary, rows: rows.length, stages_moved: moved }), IMPORT_ACTION],
        );
        return { dry_run: false, applied: true, summary, rows };
      });
    },
  );

  app.get('/api/admin/people/:employeeCode', { schema: { params: CodeParams } }, async (req) => {
    const org = await loadOrg(db);
    const p = [...org.people.values()].find((x) => x.employee_code === req.params.employeeCode);
    if (!p) throw notFound(`No person has the employee code ${req.params.employeeCode}`);
    return personJson(p, org.people, org.departments);
  });

  app.post('/api/admin/people', { schema: { body: PersonSchema } }, async (req, reply) => {
    const person = await savePerson(db, req.user.id, { line: 1, mode: 'create', fields: fieldsOf(req.body) }, clock.now());
    return reply.status(201).send(person);
  });

  app.patch('/api/admin/people/:employeeCode', { schema: { params: CodeParams, body: PatchSchema } }, async (req) =>
    savePerson(db, req.user.id, { line: 1, mode: 'update', key: req.params.employeeCode, fields: fieldsOf(req.body) }, clock.now()),
  );

  app.post('/api/admin/people/:employeeCode/deactivate', { schema: { params: CodeParams, body: DeactivateSchema } }, async (req) =>
    deactivatePerson(
      app.ctx,
      req.user.id,
      { code: req.params.employeeCode, reassignTo: req.body.reassign_to, pendingRequests: req.body.pending_requests },
      clock.now(),
    ),
  );
}
