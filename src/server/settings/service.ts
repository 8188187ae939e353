// Company settings (issue 18): the regional holiday calendars that apply, the company's own holidays and the leave
// policy (the default annual allowance and per-person overrides). Each change runs in one transaction with its
// audit row, then this instance reloads the calendar at once (the others hear PostgreSQL's signal).
//
// Leave allowance: users.annual_leave_total stays the one number every reader uses. A person follows the default
// when their allowance equals it; anything else is an override. Changing the default moves everyone who followed
// it; setting an override writes the person's number; removing it puts the default back.
import type pg from 'pg';
import { isIsoDate } from '../../domain/business-time.js';
import { type CompanyHoliday, DEFAULT_REGIONS, parseRegion, regionName, reloadCalendarSettings } from '../calendar/company.js';
import type { Db, Queryable } from '../db/pool.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { writeAudit } from '../admin/audit.js';

export const SPEC_ANNUAL_LEAVE = 12;

// ---- holidays ---------------------------------------------------------------------------------

export interface HolidayInput {
  date: string;
  name: string;
  closed?: boolean;
}

async function readRegions(c: Queryable): Promise<string[]> {
  const r = await c.query(`SELECT value FROM company_settings WHERE key = 'holiday_regions'`);
  const v = r.rows[0]?.value;
  return Array.isArray(v) ? v.map(String) : [...DEFAULT_REGIONS];
}

async function listCompanyHolidays(c: Queryable): Promise<CompanyHoliday[]> {
  const r = await c.query(`SELECT id, to_char(date, 'YYYY-MM-DD') AS date, name, closed FROM company_holidays ORDER BY date, name`);
  return r.rows.map((h) => ({ id: Number(h.id), date: h.date, name: h.name, closed: h.closed }));
}

export async function holidaySettings(db: Queryable) {
  const regions = await readRegions(db);
  return {
    regions: regions.map((code) => ({ code, name: regionName(code) })),
    company_holidays: await listCompanyHolidays(db),
  };
}

/** Checks and normalises a holiday: a real date in 1971-2099, a name of 1-100 characters. */
function cleanHoliday(input: HolidayInput): Required<HolidayInput> {
  const name = input.name.trim().replace(/\s+/g, ' ');
  if (!isIsoDate(input.date)) throw badRequest('date must be a real date (YYYY-MM-DD)');
  const year = Number(input.date.slice(0, 4));
  if (year < 1971 || year > 2099) throw badRequest('date must be between 1971 and 2099');
  if (name === '') throw badRequest('name is required');
  if (name.length > 100) throw badRequest('name must be at most 100 characters');
  return { date: input.date, name, closed: input.closed ?? true };
}

const HOLIDAY_COLUMNS = `id, to_char(date, 'YYYY-MM-DD') AS date, name, closed`;
const holidayRow = (r: any): CompanyHoliday => ({ id: Number(r.id), date: r.date, name: r.name, closed: r.closed });

function duplicateHoliday(err: unknown): never {
  if ((err as { code?: string }).code === '23505') throw conflict('The company already has a holiday of that name on that date');
  throw err;
}

async function inTx<T>(db: Db, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const out = await db.tx(fn);
  await reloadCalendarSettings(db);
  return out;
}

export async function addHoliday(db: Db, actorId: number, input: HolidayInput): Promise<CompanyHoliday> {
  const h = cleanHoliday(input);
  return inTx(db, async (c) => {
    const r = await c
      .query(`INSERT INTO company_holidays (date, name, closed) VALUES ($1, $2, $3) RETURNING ${HOLIDAY_COLUMNS}`, [
        h.date,
        h.name,
        h.closed,
      ])
      .catch(duplicateHoliday);
    const row = holidayRow(r.rows[0]);
    await writeAudit(c, { actorId, action: 'holiday.create', targetType: 'holiday', targetId: String(row.id), before: null, after: row });
    return row;
  });
}

export async function updateHoliday(db: Db, actorId: number, id: number, input: HolidayInput): Promise<CompanyHoliday> {
  const h = cleanHoliday(input);
  return inTx(db, async (c) => {
    const before = await c.query(`SELECT ${HOLIDAY_COLUMNS} FROM company_holidays WHERE id = $1 FOR UPDATE`, [id]);
    if (!before.rows[0]) throw notFound('Holiday not found');
    const r = await c
      .query(
        `UPDATE company_holidays SET date = $2, name = $3, closed = $4, updated_at = now() WHERE id = $1 RETURNING ${HOLIDAY_COLUMNS}`,
        [id, h.date, h.name, h.closed],
      )
      .catch(duplicateHoliday);
    const row = holidayRow(r.rows[0]);
    await writeAudit(c, {
      actorId,
      action: 'holiday.update',
      targetType: 'holiday',
      targetId: String(id),
      before: holidayRow(before.rows[0]),
      after: row,
    });
    return row;
  });
}

export async function removeHoliday(db: Db, actorId: number, id: number): Promise<void> {
  await inTx(db, async (c) => {
    const r = await c.query(`DELETE FROM company_holidays WHERE id = $1 RETURNING ${HOLIDAY_COLUMNS}`, [id]);
    if (!r.rows[0]) throw notFound('Holiday not found');
    await writeAudit(c, {
      actorId,
      action: 'holiday.delete',
      targetType: 'holiday',
      targetId: String(id),
      before: holidayRow(r.rows[0]),
      after: null,
    });
  });
}

/** Sets the regional calendars that apply: 1 to 10 known regions ('IN', 'US-CA'), without repeats. */
export async function setRegions(db: Db, actorId: number, regions: string[]): Promise<{ code: string; name: string }[]> {
  const codes = regions.map((r) => r.trim().toUpperCase());
  if (codes.length === 0) throw badRequest('Choose at least one regional calendar');
  const unknown = codes.filter((c) => !parseRegion(c));
  if (unknown.length) throw badRequest(`Unknown regional calendar: ${unknown.join(', ')}`);
  if (new Set(codes).size !== codes.length) throw badRequest('A regional calendar is listed twice');
  await inTx(db, async (c) => {
    const before = await readRegions(c);
    await c.query(
      `INSERT INTO company_settings (key, value, updated_at) VALUES ('holiday_regions', $1::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [JSON.stringify(codes)],
    );
    await writeAudit(c, {
      actorId,
      action: 'holiday_regions.update',
      targetType: 'setting',
      targetId: 'holiday_regions',
      before: { regions: before },
      after: { regions: codes },
    });
  });
  return codes.map((code) => ({ code, name: regionName(code) }));
}

// ---- leave policy -----------------------------------------------------------------------------

/** The default annual allowance (the spec's 12 until an administrator changes it). */
export async function defaultAnnualLeave(c: Queryable): Promise<number> {
  const r = await c.query(`SELECT value FROM company_settings WHERE key = 'default_annual_leave'`);
  const v = Number(r.rows[0]?.value);
  return Number.isFinite(v) ? v : SPEC_ANNUAL_LEAVE;
}

function checkAllowance(days: number, field: string): number {
  if (!Number.isFinite(days) || days < 0 || days > 365) throw badRequest(`${field} must be between 0 and 365 days`);
  if (Math.round(days * 2) !== days * 2) throw badRequest(`${field} must be whole or half days`);
  return days;
}

export interface LeaveOverride {
  employee_code: string;
  name: string;
  department: string | null;
  annual_leave_total: number;
}

export async function leavePolicy(db: Queryable): Promise<{ default_annual_leave: number; overrides: LeaveOverride[] }> {
  const def = await defaultAnnualLeave(db);
  const r = await db.query(
    `SELECT employee_code, first_name || ' ' || last_name AS name, department_code AS department, annual_leave_total
       FROM users WHERE annual_leave_total <> $1 ORDER BY last_name, first_name, employee_code`,
    [def],
  );
  return { default_annual_leave: def, overrides: r.rows.map((o) => ({ ...o, annual_leave_total: Number(o.annual_leave_total) })) };
}

/** Changes the default; everyone whose allowance was the old default gets the new one. */
export async function setDefaultAnnualLeave(
  db: Db,
  actorId: number,
  days: number,
): Promise<{ default_annual_leave: number; moved: number }> {
  checkAllowance(days, 'default_annual_leave');
  return db.tx(async (c) => {
    await c.query(`SELECT key FROM company_settings WHERE key = 'default_annual_leave' FOR UPDATE`);
    const before = await defaultAnnualLeave(c);
    const moved =
      before === days
        ? 0
        : ((await c.query(`UPDATE users SET annual_leave_total = $2 WHERE annual_leave_total = $1`, [before, days])).rowCount ?? 0);
    await c.query(
      `INSERT INTO company_settings (key, value, updated_at) VALUES ('default_annual_leave', $1::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [JSON.stringify(days)],
    );
    await writeAudit(c, {
      actorId,
      action: 'leave_policy.update',
      targetType: 'setting',
      targetId: 'default_annual_leave',
      before: { default_annual_leave: before },
      after: { default_annual_leave: days, people_moved: moved },
    });
    return { default_annual_leave: days, moved };
  });
}

/** Sets one person's allowance (an override), or with `days` null puts the default back. */
export async function setLeaveOverride(
  db: Db,
  actorId: number,
  employeeCode: string,
  days: number | null,
): Promise<LeaveOverride & { follows_default: boolean }> {
  if (days !== null) checkAllowance(days, 'annual_leave_total');
  return db.tx(async (c) => {
    const def = await defaultAnnualLeave(c);
    const cur = await c.query(
      `SELECT id, employee_code, first_name || ' ' || last_name AS name, department_code AS department, annual_leave_total
         FROM users WHERE employee_code = $1 FOR UPDATE`,
      [employeeCode],
    );
    const person = cur.rows[0];
    if (!person) throw notFound('Person not found');
    const next = days ?? def;
    await c.query(`UPDATE users SET annual_leave_total = $2 WHERE id = $1`, [person.id, next]);
    await writeAudit(c, {
      actorId,
      action: days === null ? 'leave_override.delete' : 'leave_override.update',
      targetType: 'user',
      targetId: person.employee_code,
      before: { annual_leave_total: Number(person.annual_leave_total) },
      after: { annual_leave_total: next },
    });
    return {
      employee_code: person.employee_code,
      name: person.name,
      department: person.department,
      annual_leave_total: next,
      follows_default: next === def,
    };
  });
}
