// What the server tells about a request in e-mails and on the confirmation page of an e-mail's Approve / Reject
// link (issue 22): shared by src/server/email/ and src/web/email/.

export type EmailDecision = 'Approved' | 'Rejected';

export interface RequestFacts {
  request_id: string;
  form_type: string;
  /** 'Leave Request' */
  type_label: string;
  employee_name: string;
  /** 'USD $1,250.00', or null when the type has no amount. */
  amount: string | null;
  /** The request's dates: '2 Feb 2027 to 6 Feb 2027' under their label, or null. */
  dates: { label: string; text: string } | null;
  purpose: string | null;
  status: string;
  /** The web's page of the request (relative). */
  path: string;
}

/** The answer of POST /api/email-actions/check: what a usable link would decide. */
export interface EmailLinkView {
  decision: EmailDecision;
  stage: string;
  /** 'Line Manager Approval' */
  stage_label: string;
  approver_name: string;
  request: RequestFacts;
  expires_at: string;
}
