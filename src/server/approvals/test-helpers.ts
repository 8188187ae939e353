// Helpers of the approval API tests: valid sample input for every form type, users by e-mail, and the
// role endpoint that decides each stage.
import { addDays, businessToday, weekdayOf } from '../../domain/business-time.js';
import { type FormTypeDef, type Stage, formTypeDef } from '../../domain/forms.js';
import { indiaLunarHolidays } from '../../domain/holidays.js';
import type { Queryable } from '../db/pool.js';
import { workingDays } from '../forms/leave.js';
import { type AuthUser, loadUserByEmail } from '../people/service.js';
import type { ApiClient } from '../test/harness.js';

let dayOffset = 0;
/**
 * A working day some months ahead, different on every call (Tuesday to Thursday, never a closed holiday), so
 * leave requests never overlap and stay inside the allowed window of dates (at most two years ahead).
 */
export function nextFreeWeekday(): string {
  const start = addDays(businessToday(), 150);
  for (;;) {
    dayOffset += 1;
    const iso = addDays(start, dayOffset);
    const wd = weekdayOf(iso);
    if (wd < 2 || wd > 4) continue;
    if (workingDays(iso, iso) === 0) continue;
    if (indiaLunarHolidays(Number(iso.slice(0, 4))).some((h) => h.date === iso)) continue;
    return iso;
  }
}

/** Valid input for a form type (the same date for every date field, so end >= start rules hold). */
export function sampleInput(formType: string): Record<string, unknown> {
  const def = formTypeDef(formType) as FormTypeDef;
  const day = nextFreeWeekday();
  const out: Record<string, unknown> = {};
  for (const f of def.fields) {
    switch (f.type) {
      case 'text':
        out[f.name] = `Sample ${f.label}`;
        break;
      case 'longtext':
        out[f.name] = `Sample ${f.label.toLowerCase()} for the approval tests`;
        break;
      case 'date':
        out[f.name] = day;
        break;
      case 'time':
        out[f.name] = f.name.startsWith('end') ? '11:00' : '10:00';
        break;
      case 'integer':
        out[f.name] = Math.max(f.min ?? 1, 2);
        break;
      case 'money':
        out[f.name] = 125.5;
        break;
      case 'number':
        out[f.name] = 12;
        break;
      case 'enum':
        out[f.name] = formType === 'leave-request' && f.name === 'leave_type' ? 'Sick' : f.options![0];
        break;
    }
  }
  if (def.computedTotal) delete out[def.computedTotal.field];
  return out;
}

export async function userByEmail(db: Queryable, email: string): Promise<AuthUser> {
  const u = await loadUserByEmail(db, email);
  if (!u) throw new Error(`no user ${email}`);
  const { password_hash: _ignored, ...rest } = u;
  return rest;
}

export const EMAIL = {
  alex: 'alex.johnson@adminease.test', // employee, manager priya, HR meera
  maria: 'maria.garcia@adminease.test', // employee, manager priya, HR meera
  sam: 'sam.wilson@adminease.test', // employee, manager grace, HR tom
  chloe: 'chloe.martin@adminease.test', // employee, manager daniel, HR tom
  priya: 'priya.sharma@adminease.test', // line manager of alex, maria
  daniel: 'daniel.okafor@adminease.test', // line manager of chloe, nina
  grace: 'grace.liu@adminease.test',
  victoria: 'victoria.adams@adminease.test',
  meera: 'meera.iyer@adminease.test', // HR (HR-001)
  tom: 'tom.becker@adminease.test', // HR (HR-002)
  arjun: 'arjun.mehta@adminease.test', // finance
  hannah: 'hannah.kim@adminease.test', // finance
  sofia: 'sofia.rossi@adminease.test', // facilities desk
  kenji: 'kenji.watanabe@adminease.test', // facilities manager
  lena: 'lena.fischer@adminease.test', // IT
} as const;

/** Decides a stage through its role's own update-status endpoint, with that endpoint's payload. */
export function decideVia(
  client: ApiClient,
  stage: Stage,
  formId: string,
  formType: string,
  status: 'Approved' | 'Rejected',
  reason?: string,
) {
  const me = client.user;
  switch (stage) {
    case 'line_manager':
      return client.post('/api/manager/update-status', {
        form_id: formId,
        form_type: formType,
        status,
        manager_id: me.profile.manager_id ?? me.id,
        manager_name: 'Not Used',
        comments: '',
        rejection_reason: reason ?? '',
      });
    case 'hr':
      return client.post('/api/hr/update-status', {
        form_id: formId,
        form_type: formType,
        status,
        hr_id: me.profile.hr_id ?? me.id,
        hr_name: 'Not Used',
        rejection_reason: reason ?? '',
      });
    case 'finance':
      return client.post('/api/finance/update-status', {
        form_id: formId,
        approval: status,
        finance_id: String(me.id),
        comments: '',
        session_id: 'abc',
        finance_name: 'Not Used',
        rejection_reason: reason ?? '',
      });
    case 'facilities_desk':
      return client.post('/api/facilities-desk/update-status', {
        form_id: formId,
        form_type: formType,
        status,
        facilities_id: me.id,
        facilities_name: 'Not Used',
        comments: '',
        rejection_reason: reason ?? '',
      });
    case 'facilities_manager':
      return client.post('/api/facilities-manager/update-status', {
        form_id: formId,
        form_type: formType,
        status,
        manager_id: me.id,
        manager_name: 'Not Used',
        comments: '',
        rejection_reason: reason ?? '',
      });
    default:
      throw new Error(`no endpoint for ${stage}`);
  }
}

/**
 * Adds a person who works like `fromEmail` (same type, role, department, manager and password) under a new
 * e-mail, e.g. a third member of a two-person group; answers the e-mail. Idempotent.
 */
export async function colleagueOf(
  db: Queryable,
  fromEmail: string,
  email: string,
  code: string,
  first: string,
  last: string,
): Promise<string> {
  const cols = (
    await db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'users'
        AND column_name NOT IN ('id', 'email', 'employee_code', 'first_name', 'last_name', 'hr_id', 'created_at') AND is_generated = 'NEVER'`,
    )
  ).rows
    .map((r: { column_name: string }) => `"${r.column_name}"`)
    .join(', ');
  await db.query(
    `INSERT INTO users (email, employee_code, first_name, last_name, ${cols})
     SELECT $2, $3, $4, $5, ${cols} FROM users WHERE lower(email) = lower($1)
     ON CONFLICT DO NOTHING`,
    [fromEmail, email, code, first, last],
  );
  return email;
}
