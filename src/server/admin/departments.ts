// Departments (issue 18): list with head counts, create, rename. The code is the key people refer to and never
// changes; the name does. Every change is in the audit log.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Queryable } from '../db/pool.js';
import { conflict, notFound } from '../http/errors.js';
import { writeAudit } from './audit.js';
import { ORG_LOCK } from './people.js';

const Code = z
  .string({ message: 'code is required' })
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/, 'code must be 1-20 letters, digits, - or _')
  .transform((s) => s.toUpperCase());
const Name = z.string({ message: 'name is required' }).trim().min(1, 'name is required').max(100, 'name can have at most 100 characters');
const CreateSchema = z.object({ code: Code, name: Name });
const RenameSchema = z.object({ name: Name });
const Params = z.object({ code: z.string().max(40) });

async function departmentOf(c: Queryable, code: string) {
  const r = await c.query(
    `SELECT d.code, d.name, count(u.id) FILTER (WHERE u.active)::int AS head_count, count(u.id) FILTER (WHERE NOT u.active)::int AS inactive_count
       FROM departments d LEFT JOIN users u ON u.department_code = d.code WHERE d.code = $1 GROUP BY d.code`,
    [code],
  );
  return r.rows[0] as { code: string; name: string; head_count: number; inactive_count: number } | undefined;
}

export default async function departmentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.ctx.db;

  app.get('/api/admin/departments', async () => {
    const r = await db.query(
      `SELECT d.code, d.name, count(u.id) FILTER (WHERE u.active)::int AS head_count, count(u.id) FILTER (WHERE NOT u.active)::int AS inactive_count
         FROM departments d LEFT JOIN users u ON u.department_code = d.code GROUP BY d.code ORDER BY d.name, d.code`,
    );
    return { departments: r.rows };
  });

  app.post('/api/admin/departments', { schema: { body: CreateSchema } }, async (req, reply) => {
    const { code, name } = req.body;
    const out = await db.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [ORG_LOCK]);
      const taken = await c.query('SELECT code, name FROM departments WHERE code = $1 OR lower(name) = lower($2)', [code, name]);
      if (taken.rows[0])
        throw conflict(
          taken.rows[0].code === code
            ? `Department code ${code} is already used by ${taken.rows[0].name}`
            : `A department is already named ${name}`,
        );
      await c.query('INSERT INTO departments (code, name) VALUES ($1, $2)', [code, name]);
      await writeAudit(c, {
        actorId: req.user.id,
        action: 'department.create',
        targetType: 'department',
        targetId: code,
        after: { code, name },
      });
      return departmentOf(c, code);
    });
    return reply.status(201).send(out);
  });

  app.patch('/api/admin/departments/:code', { schema: { params: Params, body: RenameSchema } }, async (req) => {
    const code = req.params.code.trim().toUpperCase();
    const { name } = req.body;
    return db.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [ORG_LOCK]);
      const before = await departmentOf(c, code);
      if (!before) throw notFound(`No department has the code ${code}`);
      const clash = await c.query('SELECT code FROM departments WHERE lower(name) = lower($1) AND code <> $2', [name, code]);
      if (clash.rows[0]) throw conflict(`A department is already named ${name} (${clash.rows[0].code})`);
      if (before.name !== name) {
        await c.query('UPDATE departments SET name = $2 WHERE code = $1', [code, name]);
        await writeAudit(c, {
          actorId: req.user.id,
          action: 'department.rename',
          targetType: 'department',
          targetId: code,
          before: { code, name: before.name },
          after: { code, name },
        });
      }
      return departmentOf(c, code);
    });
  });
}
