// The employee's forms API (employee-side §7 'Forms'): submit, edit and withdraw requests, the catalogue forms'
// endpoints, the person's request lists, one request's details and the leave balance.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendCachedJson } from '../approvals/queue-cache.js';
import { parse } from '../http/parse.js';
import { assertMayViewPerson } from '../people/service.js';
import { leaveBalance } from './leave.js';
import { assertBodyIdentity, editRequest, personFor, requestDetails, submitForm, userFormsOf, userFormsOfType, withdrawRequest } from './service.js';

/** Success messages of the catalogue forms (employee-side §8); other types get a plain one. */
export const SUBMIT_MESSAGES: Record<string, string> = {
  'facility-access': 'Form submitted successfully!',
  'password-reset': 'Password reset request submitted successfully!',
  'purchase-requisition': 'Purchase requisition submitted successfully!',
};
const DEFAULT_SUBMIT_MESSAGE = 'Request submitted successfully!';

const EmployeeQuery = z.object({ employee_id: z.string().trim().max(64).optional() });
const FormTypeParams = z.object({ formType: z.string().regex(/^[a-z][a-z-]{1,48}$/, 'Unknown form type') });
const RequestParams = FormTypeParams.extend({ id: z.string().trim().min(1).max(40) });

export default async function formsRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;

  async function submit(user: Parameters<typeof submitForm>[1], formType: string, body: unknown) {
    assertBodyIdentity(user, body);
    const record = await submitForm(db, user, formType, body, clock.now());
    return { ...record, success: true, message: SUBMIT_MESSAGES[formType] ?? DEFAULT_SUBMIT_MESSAGE };
  }

  // Lists and details first: static segments win over :formType, but keeping them together reads better.
  // The spec's cached user-forms: the answer is kept per person in this instance's answer cache (the queues'
  // cache: dropped on any committed change to requests, approvals or people, on every instance; 30 s at most).
  // The permission check runs first, every time. 'Cache-Control: no-cache' bypasses it. The person check says
  // whose lists the caller may ask for; the request policy then keeps only the requests the caller may see.
  app.get('/api/forms/user-forms', async (req, reply) => {
    const q = parse(EmployeeQuery, req.query);
    const personId = await personFor(db, req.user, q.employee_id);
    if (/no-cache/i.test(req.headers['cache-control'] ?? '')) return userFormsOf(db, req.user, personId);
    // Per viewer and person: what someone else sees of a person's requests is a filtered list.
    return sendCachedJson(db, reply, `user-forms|${req.user.id}|${personId}`, () => userFormsOf(db, req.user, personId));
  });

  app.get('/api/forms/leave-requests', async (req) => {
    const q = parse(EmployeeQuery, req.query);
    return userFormsOfType(db, req.user, q.employee_id, 'leave-request');
  });

  app.get('/api/purchase-requisition/user-forms', async (req) => {
    const q = parse(EmployeeQuery, req.query);
    return userFormsOfType(db, req.user, q.employee_id, 'purchase-requisition');
  });

  app.get<{ Params: { id: string } }>('/api/forms/details/:id', async (req) => requestDetails(db, req.user, req.params.id));

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
