// The administrators' audit log (migration 110): one row per administrator action, with who, what, on which
// item, and the item before and after, written in the same transaction as the change; read newest first.
import type { AuditAction } from '../../domain/audit-actions.js';
import type { Queryable } from '../db/pool.js';

export interface AuditEntry {
  actorId: number;
  /** person.create, person.update, person.deactivate, department.create, people.import, ... (src/domain/audit-actions.ts) */
  action: AuditAction;
  /** person, department, import, ... */
  targetType: string;
  /** The item's own key (an employee code, a department code). */
  targetId: string;
  before?: unknown;
  after?: unknown;
}

export async function writeAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query('INSERT INTO admin_audit (actor_id, action, target_type, target_id, before, after) VALUES ($1, $2, $3, $4, $5, $6)', [
    entry.actorId,
    entry.action,
    entry.targetType,
    entry.targetId,
    entry.before === undefined ? null : JSON.stringify(entry.before),
    entry.after === undefined ? null : JSON.stringify(entry.after),
  ]);
}

export interface AuditQuery {
  /** The actor: employee code, e-mail or user id. */
  actor?: string;
  /** An action name, or its prefix ending in '.' ('person.' for every person action). */
  action?: string;
  /** The target: its id (employee or department code), or 'type:id'. */
  target?: string;
  /** Inclusive bounds, as instants (a bare date is the start of that day, 'to' as a date includes the whole day). */
  from?: Date;
  to?: Date;
  page: number;
  pageSize: number;
}

export interface AuditRow {
  id: number;
  at: string;
  actor: { employee_code: string; email: string; name: string };
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
}

export async function listAudit(db: Queryable, q: AuditQuery): Promise<{ entries: AuditRow[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (q.actor) {
    const ref = q.actor.trim();
    where.push(
      /^\d{1,9}$/.test(ref)
        ? `a.actor_id = ${p(Number(ref))}`
        : `a.actor_id IN (SELECT id FROM users WHERE employee_code = ${p(ref)} OR lower(email) = lower($${params.length}))`,
    );
  }
  if (q.action) {
    const action = q.action.trim();
    where.push(action.endsWith('.') ? `a.action LIKE ${p(action.replace(/[\\%_]/g, '\\$&') + '%')}` : `a.action = ${p(action)}`);
  }
  if (q.target) {
    const t = q.target.trim();
    const m = /^([a-z_]+):(.+)$/.exec(t);
    if (m) where.push(`a.target_type = ${p(m[1])} AND a.target_id = ${p(m[2])}`);
    else where.push(`a.target_id = ${p(t)}`);
  }
  if (q.from) where.push(`a.at >= ${p(q.from)}`);
  if (q.to) where.push(`a.at <= ${p(q.to)}`);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (await db.query(`SELECT count(*)::int AS n FROM admin_audit a ${filter}`, params)).rows[0].n as number;
  const r = await db.query(
    `SELECT a.id, a.at, a.action, a.target_type, a.target_id, a.before, a.after,
            u.employee_code AS actor_code, u.email AS actor_email, u.first_name || ' ' || u.last_name AS actor_name
       FROM admin_audit a JOIN users u ON u.id = a.actor_id
       ${filter}
      ORDER BY a.at DESC, a.id DESC
      LIMIT ${p(q.pageSize)} OFFSET ${p((q.page - 1) * q.pageSize)}`,
    params,
  );
  return {
    total,
    entries: r.rows.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor: { employee_code: row.actor_code, email: row.actor_email, name: row.actor_name },
      action: row.action,
      target_type: row.target_type,
      target_id: row.target_id,
      before: row.before,
      after: row.after,
    })),
  };
}
