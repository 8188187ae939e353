// The append-only event log of requests. Every change to a request writes one row here, in the same
// transaction as the change; the audit trail, notifications, the form-state API and live updates read it.
// recordEvent also creates the notifications the change causes (see notify.ts) in that transaction.
import type { Queryable } from '../db/pool.js';
import { type RequestContext, notifyForEvent } from './notify.js';

export interface RequestRef {
  pk: number;
  request_id: string;
  form_type: string;
  employee_id: number;
}

export interface NewEvent {
  request: RequestRef;
  actorId: number | null;
  /** submitted, edited, withdrawn, decision, status_change, acknowledged, ticket_updated, password_set, password_revealed, ... */
  eventType: string;
  stage?: string | null;
  /** The record field that changed (line_manager_approval, status, ...). */
  field?: string | null;
  oldValue?: string | null;
  newValue?: string | null;
  details?: Record<string, unknown>;
  at?: Date;
  /**
   * Create the notifications of this change (default true). Conventions notify.ts relies on: a stage decision is
   * eventType 'decision' with stage and field '<stage>_approval'; a status change has field 'status'; IT ticket
   * changes name their field (it_helpdesk_ticket_number, it_helpdesk_assigned_to, it_support_status); a line manager
   * acknowledgement is eventType 'acknowledged' (field line_manager_acknowledgement, newValue 'true'); the employee's
   * answer to an IT resolution has field employee_confirmation_status. oldValue/newValue are the field's values.
   */
  notify?: boolean;
  /**
   * The request as it is after the change, when the caller already holds it in its transaction (saves the
   * notifications a look-up); read from the database otherwise.
   */
  context?: RequestContext;
}

/** The columns of an event row, in the order of eventValues (for writes that insert the event themselves). */
export const EVENT_COLUMNS = 'request_pk, actor_id, event_type, stage, field, old_value, new_value, details, created_at';

export function eventValues(e: NewEvent): unknown[] {
  return [
    e.request.pk,
    e.actorId,
    e.eventType,
    e.stage ?? null,
    e.field ?? null,
    e.oldValue ?? null,
    e.newValue ?? null,
    JSON.stringify(e.details ?? {}),
    e.at ?? null,
  ];
}

export async function recordEvent(c: Queryable, e: NewEvent): Promise<number> {
  const r = await c.query(
    `INSERT INTO request_events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, now())) RETURNING id`,
    eventValues(e),
  );
  const id: number = r.rows[0].id;
  if (e.notify !== false) await notifyForEvent(c, e, id);
  return id;
}
