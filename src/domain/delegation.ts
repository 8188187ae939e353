// What the delegation API answers and takes (docs/delegation.md): the server builds these shapes and the web reads
// them, so both import them from here.
import type { Stage } from './forms.js';

export interface OutOfOfficeInput {
  /** The delegate: an e-mail or an employee code. */
  delegate: string;
  from: string;
  until: string;
  message?: string | null;
}

export interface OutOfOfficeAnswer {
  delegate: string | null;
  delegate_name: string | null;
  delegate_email: string | null;
  from: string | null;
  until: string | null;
  message: string | null;
  /** The period includes today. */
  active: boolean;
  set_by: string | null;
  /** The people this person decides for today as their delegate. */
  covering: Array<{ employee_code: string; name: string; until: string }>;
}

export interface CoveringItem {
  form_id: string;
  form_type: string;
  title: string;
  employee_name: string;
  stage: Stage;
  stage_label: string;
  kind: 'delegate' | 'escalation';
  /** The approver decided for (delegation), or null (an escalation). */
  on_behalf_of: string | null;
  waiting_days: number;
  overdue: boolean;
  created_at: string;
  version: number;
}

export interface OverdueItem {
  form_id: string;
  form_type: string;
  title: string;
  employee_name: string;
  department: string | null;
  stage: Stage;
  stage_label: string;
  /** Who it waits on: the person (line manager, HR contact) or the group. */
  waiting_on: string;
  waiting_days: number;
  remind_after_days: number;
  escalate_after_days: number;
  escalated_to: string | null;
  escalated_at: string | null;
  created_at: string;
}
