// The employee's forms API (employee-side §7 'Forms'): submit, edit and withdraw requests, the catalogue forms'
// endpoints, the person's request lists, one request's details and the leave balance.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendCachedJson } from '../approvals/queue-cache.js';
import { parse } from '../http/parse.js';
import { assertMayViewPerson } from '../people/service.js';
import { leaveBalance } from './leave.js';
import { itSecretKey } from '../it-desk/service.js';
import { type OwnRecordsOptions, assertBodyIdentity, carriesPassword, editRequest, namingOf, personFor, requestDetails, submitForm, userFormsOf, userFormsOfType, withdrawRequest } from './service.js';

/** Success messages of the catalogue forms (employee-side §8); other types get a plain one. */
export const SUBMIT_MESSAGES: Record<string, string> = {
  'facility-access': 'Form submitted successfully!',
  'password-reset': 'Password reset request submitted successfully!',
  'purchase-requisition': 'Purchase requisition submitted successfully!',
};
const DEFAULT_SUBMIT_MESSAGE = 'Request submitted successfully!';

/**
 * Our web reads a reset password only on demand (the reveal call) and says so with this header on every call; the
 * spec's clients, which read `new_password` from the owner's records, send nothing.
 */
export const OMIT_PASSWORD_HEADER = 'x-adminease-new-password';

const EmployeeQuery = z.object({ employee_id: z.string().trim().max(64).optional() });
const FormTypeParams = z.object({ formType: z.string().regex(/^[a-z][a-z-]{1,48}$/, 'Unknown form type') });
const RequestParams = FormTypeParams.extend({ id: z.string().trim().min(1).max(40) });

export default async function formsRoutes(app: FastifyInstance) {
  const { db, clock, config } = app.ctx;

  async function submit(user: Parameters<typeof submitForm>[1], formType: string, body: unknown) {
    assertBodyIdentity(user, body);
    const record = await submitForm(db, user, formType, body, clock.now());
    return { ...record, success: true, message: SUBMIT_MESSAGES[formType] ?? DEFAULT_SUBMIT_MESSAGE };
  }

  /** What reading the caller's own records may add: the new password of their resets, unless the client omits it. */
  const ownRecords = (req: FastifyRequest, employeeRef?: string): OwnRecordsOptions => ({
    naming: namingOf(employeeRef),
    passwords: req.headers[OMIT_PASSWORD_HEADER] === 'omit'
      ? undefined
      : { key: () => itSecretKey(config), ttlHours: config.resetPasswordTtlHours, now: clock.now() },
  });

  // Lists and details first: static segments win over :formType, but keeping them together reads better.
  // The spec's cached user-forms: the answer is kept per person in this instance's answer cache (the queues'
  // cache: dropped on any committed change to requests, approvals or people, on every instance; 30 s at most).
  // The permission check runs first, every time. 'Cache-Control: no-cache' bypasses it. The person check says
  // whose lists the caller may ask for; the request policy then keeps only the requests the caller may see.
  // An answer carrying the owner's new password is never cached: each such read is computed, and logged, anew.
  app.get('/api/forms/user-forms', async (req, reply) => {
    const q = parse(EmployeeQuery, req.query);
    const personId = await personFor(db, req.user, q.employee_id);
    const opts = ownRecords(req, q.employee_id);
    const compute = () => userFormsOf(db, req.user, personId, opts);
    if (/no-cache/i.test(req.headers['cache-control'] ?? '')) {
      const out = await compute();
      if (carriesPassword(out)) reply.header('cache-control', 'no-store');
      return out;
    }
    // Per viewer and person, and per the answer's shape: what someone else sees of a person's requests is a filtered list.
    const key = `user-forms|${req.user.id}|${personId}|${opts.naming}|${opts.passwords ? 'pw' : 'no-pw'}`;
    return sendCachedJson(db, reply, key, compute, { keep: (out) => !carriesPassword(out) });
  });

  app.get('/api/forms/leave-requests', async (req) => {
    const q = parse(EmployeeQuery, req.query);
    return userFormsOfType(db, req.user, q.employee_id, 'leave-request');
  });

  app.get('/api/purchase-requisition/user-forms', async (req) => {
    const q = parse(EmployeeQuery, req.query);
    return userFormsOfType(db, req.user, q.employee_id, 'purchase-requisition');
  });

  app.get<{ Params: { id: string } }>('/api/forms/details/:id', async (req, reply) => {
    const out = await requestDetails(db, req.user, req.params.id, ownRecords(req));
    if (carriesPassword(out)) reply.header('cache-control', 'no-store');
    return out;
  });

  app.get<{ Params: { userId: string } }>('/api/forms/employee-leave-balance/:userId', async (req) => {
    const personId = await assertMayViewPerson(db, req.user, req.params.userId);
    const year = clock.now().getUTCFullYear();
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
  app.post('/api/purchase-requisition/submit', async (req, reply) => {
    reply.status(201);
    return submit(req.user, 'purchase-requisition', req.body);
  });

  // POST /api/forms/facility-access and /api/forms/password-reset are this route with their form type.
  app.post('/api/forms/:formType', async (req, reply) => {
    const { formType } = parse(FormTypeParams, req.params);
    const out = await submit(req.user, formType, req.body);
    reply.status(201);
    return out;
  });

  app.put('/api/forms/:formType/:id', async (req) => {
    const { formType, id } = parse(RequestParams, req.params);
    assertBodyIdentity(req.user, req.body);
    return editRequest(db, req.user, formType, id, req.body, clock.now());
  });

  app.post('/api/forms/:formType/:id/withdraw', async (req) => {
    const { formType, id } = parse(RequestParams, req.params);
    return withdrawRequest(db, req.user, id, { formType, now: clock.now() });
  });
}
