// IT support desk routes (approver-side §7 IT rows, employee-side §7 user confirmation) plus two of our own:
// POST /api/it-support/close-ticket (IT closes a confirmed ticket) and POST /api/password-reset/reveal-password
// (the requesting employee reads the new password). Thin: parse, call the service in a transaction, answer.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse } from '../http/parse.js';
import {
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
});

const SavePasswordSchema = z
  .object({
    form_id: FormRef.optional(),
    request_id: FormRef.optional(),
    it_helpdesk_reset_by: OptText(200, 'Reset by'),
    // Length is checked by the service (after the blank check, so a blank password reads 'New password is required').
    new_password: z.string().max(10_000).nullish(),
  })
  .refine((b) => b.form_id !== undefined || b.request_id !== undefined, { message: 'form_id is required' });

const FormOnlySchema = z.object({ form_id: FormRef });

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

const DetailsQuery = z.object({ form_id: z.string().trim().min(1, 'form_id is required').max(40), form_type: z.string().max(60).optional() });
const PendingQuery = z.object({ employee_id: z.string().max(60).optional() });

export default async function itDeskRoutes(app: FastifyInstance) {
  const { db, clock, config } = app.ctx;
  // Resolve the password key now: a malformed ADMINEASE_SECRET_KEY stops the start with its message.
  itSecretKey(config);

  app.get('/api/it-support/queue', async (req) => itQueue(db, req.user));

  app.get('/api/it-support/form-details', async (req) => {
    assertItStaff(req.user);
    const q = parse(DetailsQuery, req.query);
    return itFormDetails(db, req.user, q.form_id, q.form_type);
  });

  app.post('/api/it-support/save-ticket-details', async (req) => {
    assertItStaff(req.user);
    const body = parse(SaveTicketSchema, req.body);
    const ticket = await db.tx((c) => saveTicketDetails(c, req.user, body, clock.now()));
    return { success: true, message: 'Ticket details saved', status: ticket.status, ticket };
  });

  app.post('/api/it-support/close-ticket', async (req) => {
    assertItStaff(req.user);
    const body = parse(FormOnlySchema, req.body);
    const ticket = await db.tx((c) => closeTicket(c, req.user, body.form_id, clock.now()));
    return { success: true, message: 'Ticket closed', status: ticket.status, ticket };
  });

  app.post('/api/it-support/save-password-reset-details', async (req) => {
    assertItStaff(req.user);
    const body = parse(SavePasswordSchema, req.body);
    return db.tx((c) => savePasswordResetDetails(c, config, req.user, body, clock.now()));
  });

  app.post('/api/user-confirmation/confirm-problem-solved', async (req) => {
    const body = parse(ConfirmSchema, req.body);
    return db.tx((c) => confirmProblemSolved(c, req.user, body, clock.now()));
  });

  app.post('/api/user-confirmation/reject-resolution', async (req) => {
    const body = parse(RejectSchema, req.body);
    return db.tx((c) => rejectResolution(c, req.user, body, clock.now()));
  });

  app.get('/api/user-confirmation/pending-confirmations', async (req) => {
    const q = parse(PendingQuery, req.query);
    return pendingConfirmations(db, req.user, q.employee_id);
  });

  app.post('/api/password-reset/reveal-password', async (req, reply) => {
    const body = parse(FormOnlySchema, req.body);
    const out = await db.tx((c) => revealNewPassword(c, config, req.user, body.form_id, clock.now()));
    reply.header('cache-control', 'no-store');
    return out;
  });
}
