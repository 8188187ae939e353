// Delegation while away and reminders (docs/delegation.md): the self-service out-of-office API, the items a delegate
// decides for others, the administrator's per-person out-of-office, overdue list and reminder settings, and the
// recurring reminders sweep on the job scheduler. Thin: the rules are service.ts, reminders.ts and the policies.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isIsoDate } from '../../domain/business-time.js';
import { FORM_TYPES, formTypeDef } from '../../domain/forms.js';
import { DEFAULT_REMINDER_SETTINGS } from '../../domain/reminders.js';
import { writeAudit } from '../admin/audit.js';
import { badRequest, notFound } from '../http/errors.js';
import { overdueList, sweepReminders } from './reminders.js';
import {
  MESSAGE_MAX,
  clearOutOfOffice,
  coveringItems,
  outOfOfficeOf,
  personByCode,
  reminderSettingsOf,
  setOutOfOffice,
} from './service.js';

/** How often the reminders sweep runs (a run reads only what is not done today; reminders go out at most once a business day). */
export const SWEEP_EVERY_MINUTES = 10;

const date = (name: string) =>
  z
    .string({ message: `${name} must be a date (YYYY-MM-DD)` })
    .trim()
    .refine((v) => isIsoDate(v), `${name} must be a date (YYYY-MM-DD)`);

export const OutOfOfficeSchema = z.strictObject({
  delegate: z
    .string({ message: 'delegate must be an e-mail or an employee code' })
    .trim()
    .min(1, 'delegate is required (an e-mail or an employee code)')
    .max(320),
  from: date('from'),
  until: date('until'),
  message: z.string({ message: 'message must be text' }).max(MESSAGE_MAX, `message can have at most ${MESSAGE_MAX} characters`).nullish(),
});

const CodeParams = z.object({ employeeCode: z.string().max(40) });
const FormTypeParams = z.object({ formType: z.string().max(80) });
const days = (name: string, max: number) =>
  z
    .number({ message: `${name} must be a whole number of working days` })
    .int(`${name} must be a whole number of working days`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} can be at most ${max}`);
const ReminderSettingsSchema = z
  .strictObject({ remind_after_days: days('remind_after_days', 60), escalate_after_days: days('escalate_after_days', 120) })
  .refine((s) => s.escalate_after_days > s.remind_after_days, 'escalate_after_days must be more than remind_after_days');

export default async function delegationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, jobs } = app.ctx;

  // The sweep: once per slot across every instance (src/server/jobs/); its effects are keyed, so a retry sends nothing twice.
  jobs.recurring('reminders-sweep', { everyMinutes: SWEEP_EVERY_MINUTES }, async (run) => {
    await sweepReminders(db, run.now, { mail: config.mail !== null });
  });

  app.get('/api/me/out-of-office', async (req) => outOfOfficeOf(db, req.user.id, clock.now()));
  app.put('/api/me/out-of-office', { schema: { body: OutOfOfficeSchema } }, async (req) =>
    changed(app, await setOutOfOffice(db, req.user.id, req.body, req.user, clock.now())),
  );
  app.delete('/api/me/out-of-office', async (req) => changed(app, await clearOutOfOffice(db, req.user.id, req.user, clock.now())));

  // What the caller decides for others today (as a delegate, or after an escalation), for every dashboard.
  app.get('/api/me/covering', async (req) => ({ items: await coveringItems(db, req.user, clock.now()) }));
}

/**
 * A period changed: the session users this instance holds carry whom they cover, so they are dropped now (other
 * instances drop theirs when PostgreSQL signals the change, migration 151).
 */
function changed<T>(app: FastifyInstance, answer: T): T {
  app.ctx.sessions?.clear();
  return answer;
}

/** The administrator's routes (registered inside /api/admin's administrators-only scope: admin/routes.ts). */
export async function delegationAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.ctx;

  app.get('/api/admin/people/:employeeCode/out-of-office', { schema: { params: CodeParams } }, async (req) => {
    const person = await personByCode(db, req.params.employeeCode);
    return outOfOfficeOf(db, person.id, clock.now());
  });
  app.put('/api/admin/people/:employeeCode/out-of-office', { schema: { params: CodeParams, body: OutOfOfficeSchema } }, async (req) => {
    const person = await personByCode(db, req.params.employeeCode);
    if (!person.active) throw badRequest('This person is deactivated');
    return changed(app, await setOutOfOffice(db, person.id, req.body, req.user, clock.now()));
  });
  app.delete('/api/admin/people/:employeeCode/out-of-office', { schema: { params: CodeParams } }, async (req) => {
    const person = await personByCode(db, req.params.employeeCode);
    return changed(app, await clearOutOfOffice(db, person.id, req.user, clock.now()));
  });

  app.get('/api/admin/overdue', async () => {
    const items = await overdueList(db, clock.now());
    return { items, total: items.length };
  });

  app.get('/api/admin/reminder-settings', async () => {
    const stored = await reminderSettingsOf(db);
    return {
      defaults: DEFAULT_REMINDER_SETTINGS,
      form_types: FORM_TYPES.map((t) => ({
        form_type: t.formType,
        title: t.title,
        ...(stored.get(t.formType) ?? DEFAULT_REMINDER_SETTINGS),
        custom: stored.has(t.formType),
      })),
    };
  });
  app.put('/api/admin/reminder-settings/:formType', { schema: { params: FormTypeParams, body: ReminderSettingsSchema } }, async (req) => {
    const formType = req.params.formType;
    if (!formTypeDef(formType)) throw notFound(`Unknown form type: ${formType}`);
    const b = req.body;
    await db.tx(async (c) => {
      const before = (await reminderSettingsOf(c)).get(formType) ?? DEFAULT_REMINDER_SETTINGS;
      await c.query(
        `INSERT INTO reminder_settings (form_type, remind_after_days, escalate_after_days, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (form_type) DO UPDATE SET remind_after_days = excluded.remind_after_days, escalate_after_days = excluded.escalate_after_days,
                updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
        [formType, b.remind_after_days, b.escalate_after_days, req.user.id, clock.now()],
      );
      await writeAudit(c, {
        actorId: req.user.id,
        action: 'reminders.settings',
        targetType: 'form_type',
        targetId: formType,
        before,
        after: b,
      });
    });
    return { form_type: formType, ...b, custom: true };
  });
}
