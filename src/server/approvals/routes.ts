// Routes of the approver dashboards (paths and payloads as their existing clients call them) for line manager,
// HR, finance, facilities desk and facilities manager, plus bulk decisions, queue summaries and a request's audit
// history. Thin: parse, check that ids in the query/body are the caller's own, call the service, shape the answer
// the clients read.
import { businessYear } from '../../domain/business-time.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ApproverRole, ROLE_STAGE } from '../../domain/approvals.js';
import type { Stage } from '../../domain/forms.js';
import { leaveBalance } from '../forms/leave.js';
import { badRequest } from '../http/errors.js';
import { expectedVersion, versionField } from '../http/version.js';
import { acknowledgeItIncident, acknowledgePasswordReset } from '../it-desk/service.js';
import type { AuthUser } from '../people/service.js';
import { assertMayViewPerson, assertSelfRef } from '../policies/people.js';
import {
  BULK_MAX,
  QUEUE_MAX_LIMIT,
  approverView,
  assertRole,
  bulkDecide,
  decideStage,
  formDetailsFor,
  queueFor,
  queueSummary,
  requestHistory,
} from './service.js';
import { QueueCache, invalidateQueues, registerQueueCache, sendCachedJson } from './queue-cache.js';
import { dataQueueFor } from './data-queue.js';

const idText = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
const optionalText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));

const QueueQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.trim().toLowerCase() : 'all'))
    .refine((v) => ['all', 'pending', 'approved', 'rejected'].includes(v), 'status must be All, Pending, Approved or Rejected')
    .transform((v) => (v.charAt(0).toUpperCase() + v.slice(1)) as 'All' | 'Pending' | 'Approved' | 'Rejected'),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(QUEUE_MAX_LIMIT, `limit can be at most ${QUEUE_MAX_LIMIT}`)
    .optional(),
  form_type: z.string().max(100).optional(),
  manager_id: optionalText,
  hr_id: optionalText,
});

const DetailsQuery = z.object({
  form_id: optionalText,
  request_id: optionalText,
  form_type: z.string().max(100).optional(),
});

const statusText = z.string({ message: 'status is required' }).trim().min(1, 'status is required').max(20);
const reasonText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => v ?? undefined);
const commentsText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => v ?? undefined);

const ManagerUpdate = z.object({
  form_id: idText,
  form_type: z.string().max(100).optional(),
  status: statusText,
  manager_id: optionalText,
  manager_name: optionalText,
  comments: commentsText,
  rejection_reason: reasonText,
  version: versionField,
});
const HrUpdate = z.object({
  form_id: idText,
  form_type: z.string().max(100).optional(),
  status: statusText,
  hr_id: optionalText,
  hr_name: optionalText,
  comments: commentsText,
  rejection_reason: reasonText,
  version: versionField,
});
const DeskUpdate = z.object({
  form_id: idText,
  form_type: z.string().max(100).optional(),
  status: statusText,
  facilities_id: optionalText,
  facilities_name: optionalText,
  comments: commentsText,
  rejection_reason: reasonText,
  version: versionField,
});
const FinanceUpdate = z.object({
  form_id: idText,
  form_type: z.string().max(100).optional(),
  approval: z.string().trim().max(20).optional(),
  status: z.string().trim().max(20).optional(),
  finance_id: optionalText,
  comments: commentsText,
  session_id: optionalText,
  finance_name: optionalText,
  rejection_reason: reasonText,
  version: versionField,
});
const AckBody = z.object({ form_id: idText, manager_id: optionalText, version: versionField });
const BulkBody = z.object({
  items: z
    .array(
      z.object({
        form_id: idText,
        decision: z.string({ message: 'decision is required' }).trim().min(1, 'decision is required').max(20),
        reason: reasonText,
        rejection_reason: reasonText,
        comments: commentsText,
        version: versionField,
      }),
      { message: 'items must be a list' },
    )
    .min(1, 'Choose at least one request')
    .max(BULK_MAX, `At most ${BULK_MAX} requests can be decided at once`),
  /** The dashboard asking: decides that role's stage of every item and shapes the answered records for it. */
  role: z.enum(['manager', 'hr', 'finance', 'facilities_desk', 'facilities_manager']).optional(),
});
/** A decision on any stage of a request (the generic queue's; stage defaults to the caller's). */
const DecideBody = z.object({
  form_id: idText,
  decision: z.string({ message: 'decision is required' }).trim().min(1, 'decision is required').max(20),
  stage: z
    .string()
    .trim()
    .regex(/^[a-z_0-9]{2,40}$/, 'Unknown approval stage')
    .optional(),
  reason: reasonText,
  rejection_reason: reasonText,
  comments: commentsText,
  version: versionField,
});
const SummaryQuery = z.object({
  role: z.enum(['manager', 'hr', 'finance', 'facilities_desk', 'facilities_manager'], {
    message: 'role must be manager, hr, finance, facilities_desk or facilities_manager',
  }),
});

/** An id in a query/body naming the acting approver must be the caller's own (user id, employee code, HR id). */
function assertSelf(user: AuthUser, ref: string | undefined, what: string, extraAllowed: string[] = []): void {
  assertSelfRef(user, ref, `${what} must be your own id`, extraAllowed);
}

function detailsRef(q: z.infer<typeof DetailsQuery>): string {
  const ref = q.form_id ?? q.request_id;
  if (!ref || ref.trim() === '') throw badRequest('form_id is required');
  return ref;
}

const EmployeeParams = z.object({ employeeId: z.string() });
const IdParams = z.object({ id: z.string() });

export default async function approvalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const now = () => app.ctx.clock.now();
  const year = () => businessYear(now());

  // Serialised queue answers are reused until anything changes (ADMINEASE_QUEUE_CACHE=0 turns this off).
  const cache = new QueueCache(db, app.log);
  if (app.ctx.config.queueCache) {
    registerQueueCache(db, cache);
    await cache.start();
    app.ctx.onClose.push(() => cache.stop());
  }

  const queue = (role: ApproverRole, q: z.infer<typeof QueueQuery>, user: AuthUser) =>
    queueFor(db, user, role, { status: q.status, limit: q.limit, formType: q.form_type, now: now() });

  const cachedJson = (reply: FastifyReply, key: string, compute: () => Promise<unknown>) => sendCachedJson(db, reply, key, compute);
  const keyOf = (role: ApproverRole, user: AuthUser, q: z.infer<typeof QueueQuery>) =>
    `${role}|${user.id}|${q.status}|${q.limit ?? ''}|${q.form_type ?? ''}`;

  const decide = async (
    req: FastifyRequest,
    role: ApproverRole,
    formId: string,
    status: string,
    formType: string | undefined,
    reason?: string,
    comments?: string,
    version?: number,
  ) => {
    const record = await decideStage(
      db,
      req.user,
      {
        ref: formId,
        stage: ROLE_STAGE[role],
        decision: status as 'Approved',
        reason,
        comments,
        formType,
        version: expectedVersion(req, version),
      },
      now(),
    );
    return approverView(record, req.user, role);
  };

  // ---- line manager -----------------------------------------------------------------------------
  app.get('/api/manager/queue', { schema: { querystring: QueueQuery } }, async (req, reply) => {
    const q = req.query;
    assertSelf(req.user, q.manager_id, 'manager_id');
    return cachedJson(reply, keyOf('manager', req.user, q), () => queue('manager', q, req.user));
  });

  app.get('/api/manager/form-details', { schema: { querystring: DetailsQuery } }, async (req) => {
    const q = req.query;
    return formDetailsFor(db, req.user, 'manager', detailsRef(q), q.form_type);
  });

  app.post('/api/manager/update-status', { schema: { body: ManagerUpdate } }, async (req) => {
    const b = req.body;
    assertSelf(req.user, b.manager_id, 'manager_id');
    const form = await decide(req, 'manager', b.form_id, b.status, b.form_type, b.rejection_reason, b.comments, b.version);
    return { success: true, ok: true, message: `Request ${form.request_id} ${String(form.line_manager_approval).toLowerCase()}`, form };
  });

  // The acknowledgement itself is the IT desk's (a password reset moves from Pending Manager to Pending IT Action).
  for (const [path, acknowledge] of [
    ['acknowledge-it-incident', acknowledgeItIncident],
    ['acknowledge-password-reset', acknowledgePasswordReset],
  ] as const) {
    app.post(`/api/manager/${path}`, { schema: { body: AckBody } }, async (req) => {
      const b = req.body;
      assertSelf(req.user, b.manager_id, 'manager_id');
      const { changed, record } = await db.tx((c) => acknowledge(c, b.form_id, req.user, now(), expectedVersion(req, b.version)));
      if (changed) invalidateQueues(db);
      return { success: true, ok: true, already_acknowledged: !changed, form: approverView(record, req.user, 'manager') };
    });
  }

  const balance = async (req: FastifyRequest<{ Params: z.infer<typeof EmployeeParams> }>) => {
    const id = await assertMayViewPerson(db, req.user, req.params.employeeId);
    const b = await leaveBalance(db, id, year());
    return {
      employee_id: req.params.employeeId,
      year: b.year,
      annual_leave_total: b.annual_leave_total,
      annual_leave_used: b.annual_leave_used,
      annual_leave_left: Math.round((b.annual_leave_total - b.annual_leave_used) * 10) / 10,
      unpaid_leave_used: b.unpaid_leave_used,
    };
  };
  app.get('/api/manager/employee-leave-balance/:employeeId', { schema: { params: EmployeeParams } }, balance);
  app.get('/api/hr/employee-leave-balance/:employeeId', { schema: { params: EmployeeParams } }, balance);

  // ---- HR -------------------------------------------------------------------------------------------
  app.get('/api/hr/queue', { schema: { querystring: QueueQuery } }, async (req, reply) => {
    const q = req.query;
    assertSelf(req.user, q.hr_id, 'hr_id');
    assertRole(req.user, 'hr');
    return cachedJson(reply, keyOf('hr', req.user, q), () => queue('hr', q, req.user));
  });

  app.get('/api/hr/form-details', { schema: { querystring: DetailsQuery } }, async (req) => {
    const q = req.query;
    return formDetailsFor(db, req.user, 'hr', detailsRef(q), q.form_type);
  });

  app.post('/api/hr/update-status', { schema: { body: HrUpdate } }, async (req) => {
    const b = req.body;
    assertSelf(req.user, b.hr_id, 'hr_id');
    const form = await decide(req, 'hr', b.form_id, b.status, b.form_type, b.rejection_reason ?? '', b.comments, b.version);
    return { success: true, ok: true, message: `Request ${form.request_id} ${String(form.hr_approval).toLowerCase()}`, form };
  });

  // ---- finance --------------------------------------------------------------------------------------
  app.get('/api/finance/queue', { schema: { querystring: QueueQuery } }, async (req, reply) => {
    const q = req.query;
    assertRole(req.user, 'finance');
    return cachedJson(reply, keyOf('finance', req.user, q), async () => {
      const [forms, summary] = await Promise.all([queue('finance', q, req.user), queueSummary(db, req.user, 'finance')]);
      return { success: true, forms, summary };
    });
  });

  app.get('/api/finance/form-details', { schema: { querystring: DetailsQuery } }, async (req) => {
    const q = req.query;
    return formDetailsFor(db, req.user, 'finance', detailsRef(q), q.form_type);
  });

  app.post('/api/finance/update-status', { schema: { body: FinanceUpdate } }, async (req) => {
    const b = req.body;
    assertSelf(req.user, b.finance_id, 'finance_id', ['finance']);
    const status = b.approval ?? b.status;
    if (!status) throw badRequest('approval is required');
    const form = await decide(req, 'finance', b.form_id, status, b.form_type, b.rejection_reason, b.comments, b.version);
    return { success: true, ok: true, message: `Request ${form.request_id} ${String(form.finance_approval).toLowerCase()}`, form };
  });

  // ---- facilities desk ------------------------------------------------------------------------------
  app.get('/api/facilities-desk/queue', { schema: { querystring: QueueQuery } }, async (req, reply) => {
    const q = req.query;
    assertRole(req.user, 'facilities_desk');
    return cachedJson(reply, keyOf('facilities_desk', req.user, q), () => queue('facilities_desk', q, req.user));
  });

  app.get('/api/facilities-desk/form-details', { schema: { querystring: DetailsQuery } }, async (req) => {
    const q = req.query;
    return formDetailsFor(db, req.user, 'facilities_desk', detailsRef(q), q.form_type);
  });

  app.post('/api/facilities-desk/update-status', { schema: { body: DeskUpdate } }, async (req) => {
    const b = req.body;
    assertSelf(req.user, b.facilities_id, 'facilities_id');
    const form = await decide(req, 'facilities_desk', b.form_id, b.status, b.form_type, b.rejection_reason, b.comments, b.version);
    return { success: true, ok: true, message: `Request ${form.request_id} ${String(form.facilities_desk_approval).toLowerCase()}`, form };
  });

  // ---- facilities manager ---------------------------------------------------------------------------
  app.get('/api/facilities-manager/queue', { schema: { querystring: QueueQuery } }, async (req, reply) => {
    const q = req.query;
    assertRole(req.user, 'facilities_manager');
    return cachedJson(reply, keyOf('facilities_manager', req.user, q), async () => {
      const [forms, summary] = await Promise.all([
        queue('facilities_manager', q, req.user),
        queueSummary(db, req.user, 'facilities_manager'),
      ]);
      return { success: true, forms, summary };
    });
  });

  app.get('/api/facilities-manager/form-details', { schema: { querystring: DetailsQuery } }, async (req) => {
    const q = req.query;
    return formDetailsFor(db, req.user, 'facilities_manager', detailsRef(q), q.form_type);
  });

  app.post('/api/facilities-manager/update-status', { schema: { body: ManagerUpdate } }, async (req) => {
    const b = req.body;
    assertSelf(req.user, b.manager_id, 'manager_id');
    const form = await decide(req, 'facilities_manager', b.form_id, b.status, b.form_type, b.rejection_reason, b.comments, b.version);
    return {
      success: true,
      ok: true,
      message: `Request ${form.request_id} ${String(form.facilities_manager_approval).toLowerCase()}`,
      form,
    };
  });

  // ---- beyond the original: summaries, bulk decisions, audit history --------------------------------
  app.get('/api/approvals/summary', { schema: { querystring: SummaryQuery } }, async (req) => {
    const q = req.query;
    return { success: true, role: q.role, summary: await queueSummary(db, req.user, q.role) };
  });

  app.post('/api/approvals/bulk', { schema: { body: BulkBody } }, async (req) => {
    const b = req.body;
    const results = await bulkDecide(
      db,
      req.user,
      b.items.map((i) => ({
        form_id: i.form_id,
        decision: i.decision,
        reason: i.reason ?? i.rejection_reason,
        comments: i.comments,
        version: i.version,
        stage: b.role ? ROLE_STAGE[b.role] : undefined,
      })),
      now(),
    );
    if (b.role) for (const r of results) if (r.record) r.record = approverView(r.record, req.user, b.role);
    const succeeded = results.filter((r) => r.ok).length;
    return { success: succeeded === results.length, succeeded, failed: results.length - succeeded, results };
  });

  // ---- the generic queue of chains defined as data (issue 20) -----------------------------------------
  app.get('/api/approvals/queue', async (req, reply) =>
    cachedJson(reply, `data|${req.user.id}`, async () => {
      const items = await dataQueueFor(db, req.user);
      return { success: true, count: items.length, items };
    }),
  );

  app.post('/api/approvals/decide', { schema: { body: DecideBody } }, async (req) => {
    const b = req.body;
    const form = await decideStage(
      db,
      req.user,
      {
        ref: b.form_id,
        stage: b.stage as Stage | undefined,
        decision: b.decision as 'Approved',
        reason: b.reason ?? b.rejection_reason,
        comments: b.comments,
        version: expectedVersion(req, b.version),
      },
      now(),
    );
    return {
      success: true,
      ok: true,
      message: `Request ${form.request_id} ${String(b.decision).toLowerCase().startsWith('rej') ? 'rejected' : 'approved'}`,
      form,
    };
  });

  app.get('/api/requests/:id/history', { schema: { params: IdParams } }, async (req) => requestHistory(db, req.user, req.params.id));
}
