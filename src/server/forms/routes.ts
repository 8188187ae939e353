// The employee's forms API (paths and payloads as the existing clients call them): submit, edit and withdraw
// requests, the catalogue forms' endpoints, the person's request lists, one request's details and the leave balance.
import { businessYear } from '../../domain/business-time.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORM_TYPES, FORM_TYPE_IDS, successMessageOf } from '../../domain/forms.js';
import { sendCachedJson } from '../approvals/queue-cache.js';
import { assertMayViewPerson } from '../people/service.js';
import { holidayNoteOf, leaveBalance } from './leave.js';
import { coverNoticeFor } from '../delegation/service.js';
import { itSecretKey } from '../it-desk/service.js';
import {
  type OwnRecordsOptions,
  assertBodyIdentity,
  carriesPassword,
  editRequest,
  namingOf,
  personFor,
  requestDetailsAndRow,
  submitForm,
  userFormsOf,
  userFormsOfType,
  withdrawRequest,
  ownerChangesOf,
} from './service.js';

/** The exact success messages the three catalogue forms show (their registry entries'); other types get a plain one. */
export const SUBMIT_MESSAGES: Record<string, string> = Object.fromEntries(
  FORM_TYPES.filter((t) => t.successMessage).map((t) => [t.formType, t.successMessage!]),
);

/**
 * Our web reads a reset password only on demand (the reveal call) and says so with this header on every call; the
 * spec's clients, which read `new_password` from the owner's records, send nothing.
 */
export const OMIT_PASSWORD_HEADER = 'x-adminease-new-password';

const EmployeeQuery = z.object({ employee_id: z.string().trim().max(64).optional() });
const FormTypeParams = z.object({ formType: z.string().regex(/^[a-z][a-z-]{1,48}$/, 'Unknown form type') });
const RequestParams = FormTypeParams.extend({ id: z.string().trim().min(1).max(40) });
const IdParams = z.object({ id: z.string() });
const UserParams = z.object({ userId: z.string() });
/**
 * A form's fields: validated by the service against the form type's own schema (after checking whose request
 * it is), so Fastify takes any JSON here; the document names the form types.
 */
const FormBody = z.unknown().meta({
  description: `The form's fields (see the form catalogue). Form types: ${FORM_TYPE_IDS.join(', ')}.`,
  type: 'object',
});

export default async function formsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const { db, clock, config } = app.ctx;

  async function submit(user: Parameters<typeof submitForm>[1], formType: string, body: unknown) {
    assertBodyIdentity(user, body);
    const record = await submitForm(db, user, formType, body, clock.now());
    return { ...record, ...holidayNoteOf(record), success: true, message: successMessageOf(formType) };
  }

  /** What reading the caller's own records may add: the new password of their resets, unless the client omits it. */
  const ownRecords = (req: FastifyRequest, employeeRef?: string): OwnRecordsOptions => ({
    naming: namingOf(employeeRef),
    passwords:
      req.headers[OMIT_PASSWORD_HEADER] === 'omit'
        ? undefined
        : { key: () => itSecretKey(config), ttlHours: config.resetPasswordTtlHours, now: clock.now() },
  });

  // Lists and details first: static segments win over :formType, but keeping them together reads better.
  // The spec's cached user-forms: the answer is kept per person in this instance's answer cache (the queues'
  // cache: dropped on any committed change to requests, approvals or people, on every instance; 30 s at most).
  // The permission check runs first, every time. 'Cache-Control: no-cache' bypasses the cache (sendCachedJson). The
  // person check says whose lists the caller may ask for; the request policy then keeps only the requests the caller
  // may see.
  // An answer carrying the owner's new password is never cached: each such read is computed, and logged, anew.
  app.get('/api/forms/user-forms', { schema: { querystring: EmployeeQuery } }, async (req, reply) => {
    const q = req.query;
    const personId = await personFor(db, req.user, q.employee_id);
    const opts = ownRecords(req, q.employee_id);
    const compute = () => userFormsOf(db, req.user, personId, opts);
    // Per viewer and person, and per the answer's shape: what someone else sees of a person's requests is a filtered list.
    const key = `user-forms|${req.user.id}|${personId}|${opts.naming}|${opts.passwords ? 'pw' : 'no-pw'}`;
    return sendCachedJson(db, reply, key, compute, { keep: (out) => !carriesPassword(out) });
  });

  app.get('/api/forms/leave-requests', { schema: { querystring: EmployeeQuery } }, async (req) => {
    return userFormsOfType(db, req.user, req.query.employee_id, 'leave-request');
  });

  app.get('/api/purchase-requisition/user-forms', { schema: { querystring: EmployeeQuery } }, async (req) => {
    return userFormsOfType(db, req.user, req.query.employee_id, 'purchase-requisition');
  });

  app.get('/api/forms/details/:id', { schema: { params: IdParams } }, async (req, reply) => {
    const { record: out, row } = await requestDetailsAndRow(db, req.user, req.params.id, ownRecords(req));
    if (carriesPassword(out)) reply.header('cache-control', 'no-store');
    // Added to the spec's fields: who decides for an approver who is away ('Priya is away until 3 Dec; ...').
    const covering = out.current_stage ? await coverNoticeFor(db, row, clock.now()) : null;
    // Added for the owner: whether the edit and withdraw calls would accept (the web shows its buttons from these).
    const changes = await ownerChangesOf(db, req.user, row);
    const withNote = { ...out, ...holidayNoteOf(out), ...changes };
    return covering ? { ...withNote, covering } : withNote;
  });

  app.get('/api/forms/employee-leave-balance/:userId', { schema: { params: UserParams } }, async (req) => {
    const personId = await assertMayViewPerson(db, req.user, req.params.userId);
    const year = businessYear(clock.now());
    const b = await leaveBalance(db, personId, year);
    return {
      annual_leave_total: b.annual_leave_total,
      annual_leave_used: b.annual_leave_used,
      unpaid_leave_used: b.unpaid_leave_used,
      annual_leave_left: Math.round((b.annual_leave_total - b.annual_leave_used) * 10) / 10,
      year,
    };
  });

  // The purchase requisition form's own endpoint (same validation and record as POST /api/forms/purchase-requisition).
  app.post('/api/purchase-requisition/submit', { schema: { body: FormBody } }, async (req, reply) => {
    reply.status(201);
    return submit(req.user, 'purchase-requisition', req.body);
  });

  // POST /api/forms/facility-access and /api/forms/password-reset are this route with their form type.
  app.post('/api/forms/:formType', { schema: { params: FormTypeParams, body: FormBody } }, async (req, reply) => {
    const { formType } = req.params;
    const out = await submit(req.user, formType, req.body);
    reply.status(201);
    return out;
  });

  app.put('/api/forms/:formType/:id', { schema: { params: RequestParams, body: FormBody } }, async (req) => {
    const { formType, id } = req.params;
    assertBodyIdentity(req.user, req.body);
    const out = await editRequest(db, req.user, formType, id, req.body, clock.now());
    return { ...out, ...holidayNoteOf(out) };
  });

  app.post('/api/forms/:formType/:id/withdraw', { schema: { params: RequestParams } }, async (req) => {
    const { formType, id } = req.params;
    return withdrawRequest(db, req.user, id, { formType, now: clock.now() });
  });
}
