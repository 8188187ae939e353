// Shapes of the forms API answers the employee screens read (GET /api/forms/user-forms and friends).

/** A flattened request record (server: requests/repo.ts toRecord): the form's fields plus ids, status and approvals. */
export interface FormRecord {
  id: number;
  request_id: string;
  form_id?: string;
  form_type: string;
  title?: string;
  status: string;
  created_at: string;
  updated_at?: string;
  employee_id: string;
  employee_user_id: number;
  employee_name?: string;
  department?: string;
  line_manager?: string | null;
  manager?: string;
  next_stage?: string;
  current_stage?: string | null;
  [field: string]: unknown;
}

/** GET /api/forms/user-forms: the person's requests keyed by form type. */
export type UserFormsByType = Record<string, FormRecord[]>;

/** GET /api/forms/employee-leave-balance/{userId}. */
export interface LeaveBalance {
  annual_leave_total: number;
  annual_leave_used: number;
  unpaid_leave_used: number;
  annual_leave_left?: number;
  year?: number;
}

/**
 * Answer of the submit endpoints: the stored record plus the spec's message (and, for a leave with closed holidays
 * inside it, the note that says which are not counted).
 */
export type SubmitResult = FormRecord & { success: true; message: string; holiday_note?: string };
