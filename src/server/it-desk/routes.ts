// IT support desk routes (the IT dashboard's queue, details and saves, and the employee's confirm-problem-solved /
// reject-resolution calls under /api/user-confirmation) plus three of our own:
// POST /api/it-support/close-ticket (IT closes a confirmed ticket), POST /api/password-reset/reveal-password
// (the requesting employee reads the new password) and POST /api/password-reset/confirm-password-saved (they
// saved it: it is erased). Thin: parse, call the service in a transaction, answer.
// The queue is answered through the approver queues' per-instance cache (src/server/approvals/queue-cache.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseFormType } from '../../domain/approvals.js';
import { IT_FILTERS, type ItFilter } from '../../domain/it.js';
import { invalidateQueues, sendCachedJson } from '../approvals/queue-cache.js';
import { expectedVersion, versionField } from '../http/version.js';
import { confirmPasswordSaved, startResetPasswordSweeper, sweepExpiredResetPasswords } from './reset-retention.js';
import type { AuthUser } from '../people/service.js';
import {
  IT_FORM_TYPES,
  IT_QUEUE_DEFAULT_LIMIT,
  IT_QUEUE_MAX_LIMIT,
  assertItStaff,
  closeTicket,
  itSecretKey,
  confirmProblemSolved,
  itFormDetails,
  itQueue,
  pendingConfirmations,
  rejectResolution,
  revealNewPassword,
  savePasswordResetDetails,
  saveTicketDetails,
} from './service.js';

const FormRef = z.union([z.string().trim().min(1, 'form_id is required').max(40), z.number().int().positive()], {
  message: 'form_id is required',
});
const OptText = (max: number, label: string) => z.string().max(max, `${label} is too long (at most ${max} characters)`).nullish();

const SaveTicketSchema = z.object({
  form_id: FormRef,
  it_helpdesk_ticket_number: OptText(100, 'IT Ticket Number'),
  it_resolution_notes: OptText(4000, 'Resolution notes'),
  it_helpdesk_assigned_to: OptText(120, 'Assignee'),
  version: versionField,
});

const SavePasswordSchema = z
  .object({
    form_id: FormRef.optional(),
    request_id: FormRef.optional(),
    it_helpdesk_reset_by: OptText(200, 'Reset by'),
    // Length is checked by the service (after the blank check, so a blank password reads 'New password is required').
    new_password: z.string().max(10_000).nullish(),
    version: versionField,
  })
  .refine((b) => b.form_id !== undefined || b.request_id !== undefined, { message: 'form_id is required' });

const FormOnlySchema = z.object({ form_id: FormRef });
const CloseSchema = FormOnlySchema.extend({ version: versionField });

const ConfirmSchema = z.object({
  form_id: FormRef,
  employee_id: z.union([z.string().max(60), z.number()]).nullish(),
  confirmation_notes: OptText(1000, 'Confirmation notes'),
});

const RejectSchema = z.object({
  form_id: FormRef,
  employee_id: z.union([z.string().max(60), z.number()]).nullish(),
  rejection_reason: OptText(1000, 'Rejection reason'),
});

const STATUS_MESSAGE = `status must be ${IT_FILTERS.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`;
const FORM_TYPE_MESSAGE = `form_type must be ${IT_FORM_TYPES.join(' or ')}`;

/** GET /api/it-support/queue?status=&limit=&form_type= (all optional). */
const ItQueueQuery = z.object({
  status: z
    .string({ message: STATUS_MESSAGE })
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim().toLowerCase() : 'all'))
    .refine((v) => IT_FILTERS.some((f) => f.toLowerCase() === v), STATUS_MESSAGE)
    .transform((v) => IT_FILTERS.find((f) => f.toLowerCase() === v) as ItFilter),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(IT_QUEUE_MAX_LIMIT, `limit can be at most ${IT_QUEUE_MAX_LIMIT}`)
    .optional(),
  // The spec's free-text types are understood too ('IT Incident', 'Password Reset').
  form_type: z
    .string({ message: FORM_TYPE_MESSAGE })
    .max(100, FORM_TYPE_MESSAGE)
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : normaliseFormType(v)))
    .refine((v) => v === undefined || IT_FORM_TYPES.includes(v), FORM_TYPE_MESSAGE),
});
type ItQueueParams = z.infer<typeof ItQueueQuery>;

/** The cache key of one caller's queue answer (the 'it|' prefix keeps it apart from the approver queues). */
const itQueueCacheKey = (user: Pick<AuthUser, 'id'>, q: ItQueueParams) =>
  `it|${user.id}|${q.status}|${q.limit ?? IT_QUEUE_DEFAULT_LIMIT}|${q.form_type ?? ''}`;

const DetailsQuery = z.object({
  form_id: z.string().trim().min(1, 'form_id is required').max(40),
  form_type: z.string().max(60).optional(),
});
const PendingQuery = z.object({ employee_id: z.string().max(60).optional() });

/** IT staff only, checked before the route's inputs (403 before any 400). */
const IT_STAFF_ONLY = { preValidation: async (req: FastifyRequest) => assertItStaff(req.user) };

export default async function itDeskRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.ctx;
  // Resolve the password key now: a malformed ADMINEASE_SECRET_KEY stops the start with its message.
  itSecretKey(config);
  // Stored reset passwords past their time limit are erased without anyone's action.
  const stopSweeper = startResetPasswordSweeper(db, clock, config.resetPasswordTtlHours, (err) =>
    app.log.warn({ err }, 'reset password sweep failed'),
  );
  app.ctx.onClose.push(stopSweeper);

  // IT staff only (403 before anything else), then the parameters (400), then the cached answer.
  app.get('/api/it-support/queue', { ...IT_STAFF_ONLY, schema: { querystring: ItQueueQuery } }, async (req, reply) => {
    const q = req.query;
    return sendCachedJson(db, reply, itQueueCacheKey(req.user, q), () =>
      itQueue(db, req.user, { status: q.status, limit: q.limit, formType: q.form_type }),
    );
  });
  /** A change made here shows in this instance's queues at once (other instances hear it from PostgreSQL). */
  const changed = <T>(out: T): T => {
    invalidateQueues(db);
    return out;
  };

  app.get('/api/it-support/form-details', { ...IT_STAFF_ONLY, schema: { querystring: DetailsQuery } }, async (req) => {
    const q = req.query;
    return itFormDetails(db, req.user, q.form_id, q.form_type);
  });

  app.post('/api/it-support/save-ticket-details', { ...IT_STAFF_ONLY, schema: { body: SaveTicketSchema } }, async (req) => {
    const body = req.body;
    const input = { ...body, version: expectedVersion(req, body.version) };
    const ticket = changed(await db.tx((c) => saveTicketDetails(c, req.user, input, clock.now())));
    return { success: true, message: 'Ticket details saved', status: ticket.status, ticket };
  });

  app.post('/api/it-support/close-ticket', { ...IT_STAFF_ONLY, schema: { body: CloseSchema } }, async (req) => {
    const body = req.body;
    const ticket = changed(await db.tx((c) => closeTicket(c, req.user, body.form_id, clock.now(), expectedVersion(req, body.version))));
    return { success: true, message: 'Ticket closed', status: ticket.status, ticket };
  });

  app.post('/api/it-support/save-password-reset-details', { ...IT_STAFF_ONLY, schema: { body: SavePasswordSchema } }, async (req) => {
    const body = req.body;
    const input = { ...body, version: expectedVersion(req, body.version) };
    return changed(await db.tx((c) => savePasswordResetDetails(c, config, req.user, input, clock.now())));
  });

  app.post('/api/user-confirmation/confirm-problem-solved', { schema: { body: ConfirmSchema } }, async (req) => {
    const body = req.body;
    return changed(await db.tx((c) => confirmProblemSolved(c, req.user, body, clock.now())));
  });

  app.post('/api/user-confirmation/reject-resolution', { schema: { body: RejectSchema } }, async (req) => {
    const body = req.body;
    return changed(await db.tx((c) => rejectResolution(c, req.user, body, clock.now())));
  });

  app.get('/api/user-confirmation/pending-confirmations', { schema: { querystring: PendingQuery } }, async (req) => {
    return pendingConfirmations(db, req.user, req.query.employee_id);
  });

  app.post('/api/password-reset/reveal-password', { schema: { body: FormOnlySchema } }, async (req, reply) => {
    const body = req.body;
    // Erase what is past its time limit first, so an expired password is answered as erased (and logged so).
    // A failing sweep must not fail the reveal: the reveal itself refuses a password past its time limit.
    await sweepExpiredResetPasswords(db, clock.now(), config.resetPasswordTtlHours).catch((err) =>
      req.log.error({ err }, 'reset password sweep failed'),
    );
    const out = changed(await db.tx((c) => revealNewPassword(c, config, req.user, body.form_id, clock.now())));
    reply.header('cache-control', 'no-store');
    return out;
  });

  // The owner has saved the password they read: it is erased now rather than at the time limit.
  app.post('/api/password-reset/confirm-password-saved', { schema: { body: FormOnlySchema } }, async (req, reply) => {
    const body = req.body;
    const out = changed(await db.tx((c) => confirmPasswordSaved(c, req.user, body.form_id, clock.now())));
    reply.header('cache-control', 'no-store');
    return out;
  });
}
