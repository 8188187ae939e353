// Entity lexicon of the built-in assistant: the words people use for the option values of the forms
// (leave types, systems, reset reasons, ...). Each entry maps a canonical value to its phrasings; the NLU's
// named-entity recogniser and the slot filler both read these lists.

export type Lexicon = Record<string, readonly string[]>;

export const LEAVE_TYPE_WORDS: Lexicon = {
  Annual: [
    'annual',
    'annual leave',
    'vacation',
    'holiday',
    'holidays',
    'pto',
    'paid time off',
    'privilege leave',
    'earned leave',
    'a break',
  ],
  Sick: ['sick', 'sick leave', 'illness', 'ill', 'unwell', 'medical leave', 'not feeling well', 'flu', 'fever', 'doctor'],
  Casual: ['casual', 'casual leave', 'personal day'],
  Unpaid: ['unpaid', 'unpaid leave', 'without pay', 'leave without pay', 'lwp'],
  Maternity: ['maternity', 'maternity leave', 'having a baby'],
  Paternity: ['paternity', 'paternity leave', 'my wife is having a baby', 'partner is having a baby'],
  Bereavement: ['bereavement', 'bereavement leave', 'compassionate leave', 'funeral', 'passed away'],
  Compensatory: ['compensatory', 'comp off', 'compensatory off', 'time off in lieu', 'toil', 'in lieu'],
};
/** Leave-type words that only count when nothing more explicit is said (they often describe the reason). */
export const WEAK_LEAVE_WORDS = new Set([
  'holiday',
  'holidays',
  'a break',
  'ill',
  'unwell',
  'not feeling well',
  'flu',
  'fever',
  'doctor',
  'funeral',
  'passed away',
  'having a baby',
  'my wife is having a baby',
  'partner is having a baby',
  'in lieu',
]);

export const PASSWORD_SYSTEM_WORDS: Lexicon = {
  Email: ['email', 'e-mail', 'mail', 'outlook', 'mailbox', 'gmail', 'webmail'],
  ERP: ['erp', 'sap', 'oracle', 'netsuite', 'payroll system'],
  CRM: ['crm', 'salesforce', 'hubspot', 'dynamics'],
  VPN: ['vpn', 'remote access', 'globalprotect', 'anyconnect'],
};

export const RESET_REASON_WORDS: Lexicon = {
  'Forgotten Password': [
    'forgot',
    'forgotten',
    "can't remember",
    'cannot remember',
    "don't remember",
    'do not remember',
    'lost my password',
    'lost the password',
    'no idea what my password',
    'expired',
    'expiry',
  ],
  'Locked Account': ['locked', 'locked out', 'lock out', 'lockout', 'blocked', 'account is disabled', 'too many attempts', 'suspended'],
  'Security Concern': ['security', 'compromised', 'hacked', 'phishing', 'suspicious', 'leaked', 'someone else knows', 'breach', 'stolen'],
};

/** Systems an IT incident can name; services come before devices (a laptop that cannot reach the VPN is a VPN incident). */
export const INCIDENT_SYSTEM_WORDS: Lexicon = {
  VPN: ['vpn', 'remote access', 'globalprotect', 'anyconnect'],
  Email: ['email', 'e-mail', 'outlook', 'mailbox', 'mail', 'inbox', 'calendar invites'],
  ERP: ['erp', 'sap', 'oracle', 'netsuite'],
  CRM: ['crm', 'salesforce', 'hubspot'],
  'Wi-Fi': ['wifi', 'wi-fi', 'wireless', 'hotspot'],
  Network: ['network', 'internet', 'ethernet', 'lan', 'connection is down'],
  Teams: ['teams', 'microsoft teams', 'zoom', 'video call', 'webex', 'slack'],
  Printer: ['printer', 'printing', 'print', 'scanner', 'copier'],
  'Shared Drive': ['shared drive', 'file share', 'sharepoint', 'onedrive', 'network drive'],
  Phone: ['phone', 'desk phone', 'mobile', 'softphone'],
  Projector: ['projector', 'screen in the room', 'display in the meeting room'],
  Monitor: ['monitor', 'screen', 'display'],
  Keyboard: ['keyboard'],
  Mouse: ['mouse', 'trackpad', 'touchpad'],
  Headset: ['headset', 'headphones', 'microphone', 'mic', 'speakers'],
  Laptop: ['laptop', 'notebook', 'macbook', 'thinkpad', 'battery', 'charger'],
  Desktop: ['desktop', 'computer', 'pc', 'workstation'],
  Software: ['software', 'application', 'app', 'program', 'excel', 'word', 'browser', 'chrome'],
};

export const ACCESS_TYPE_WORDS: Lexicon = {
  'New Access Card': [
    'new access card',
    'new card',
    'new badge',
    'access card',
    'lost my card',
    'lost my badge',
    'replacement card',
    'id card',
  ],
  'Temporary Access': ['temporary', 'temporary access', 'temporarily', 'for a few days', 'for one day', 'visitor'],
  'Extended Access Hours': [
    'extended hours',
    'extended access',
    'after hours',
    'after-hours',
    'late hours',
    'weekend access',
    'overnight',
    'at night',
    'evenings',
    'weekends',
  ],
};

export const INFO_UPDATE_WORDS: Lexicon = {
  Address: ['address', 'moved house', 'moved', 'relocated', 'new home', 'residence'],
  'Phone Number': ['phone', 'phone number', 'mobile', 'mobile number', 'cell', 'contact number'],
  'Emergency Contact': ['emergency contact', 'next of kin', 'emergency'],
  'Bank Details': ['bank', 'bank details', 'bank account', 'salary account', 'iban', 'account number'],
  Name: ['name', 'surname', 'last name', 'maiden name'],
  'Marital Status': ['marital status', 'married', 'divorced', 'marriage', 'wedding'],
};

export const PRIORITY_WORDS: Lexicon = {
  High: ['high', 'urgent', 'asap', 'critical', 'important', 'immediately', 'high priority'],
  Medium: ['medium', 'normal', 'moderate', 'soon'],
  Low: ['low', 'not urgent', 'whenever', 'no rush', 'low priority'],
};

export const SEVERITY_WORDS: Lexicon = {
  Critical: ['critical', 'life threatening', 'hospital', 'ambulance'],
  High: ['high', 'serious', 'severe', 'major', 'injured', 'injury'],
  Medium: ['medium', 'moderate'],
  Low: ['low', 'minor', 'small', 'near miss'],
};

export const ACCESS_LEVEL_WORDS: Lexicon = {
  Admin: ['admin', 'administrator', 'full control', 'admin rights'],
  Write: ['write', 'edit', 'read and write', 'read/write', 'modify', 'contributor'],
  Read: ['read', 'read only', 'read-only', 'view', 'viewer'],
};

export const IT_ACCESS_TYPE_WORDS: Lexicon = {
  'New Access': ['new access', 'need access', 'get access', 'grant', 'give me access', 'access to'],
  'Modify Access': ['change my access', 'modify', 'upgrade', 'more rights', 'change access'],
  'Remove Access': ['remove', 'revoke', 'take away', 'no longer need access'],
};

/** Option words per form field (form field name -> lexicon). */
export const FIELD_LEXICONS: Record<string, Lexicon> = {
  leave_type: LEAVE_TYPE_WORDS,
  system_for_reset: PASSWORD_SYSTEM_WORDS,
  reset_reason: RESET_REASON_WORDS,
  access_request_type: ACCESS_TYPE_WORDS,
  update_type: INFO_UPDATE_WORDS,
  priority: PRIORITY_WORDS,
  urgency: PRIORITY_WORDS,
  severity: SEVERITY_WORDS,
  access_level: ACCESS_LEVEL_WORDS,
  access_type: IT_ACCESS_TYPE_WORDS,
};

/** Words naming each form type when someone asks about their requests ('my travel request'). */
export const FORM_TYPE_WORDS: Lexicon = {
  'leave-request': ['leave', 'leaves', 'time off', 'day off', 'days off', 'vacation', 'pto', 'absence', 'sick leave', 'annual leave'],
  'travel-request': ['travel', 'trip', 'business trip', 'flight', 'journey'],
  'petty-cash': ['petty cash', 'cash advance', 'petty'],
  'purchase-requisition': ['purchase requisition', 'requisition', 'purchase', 'purchase request', 'purchase order', 'procurement'],
  'meeting-room': ['meeting room', 'room booking', 'room', 'booking', 'conference room', 'board room', 'boardroom'],
  'it-incident': ['it incident', 'incident', 'it ticket', 'ticket', 'it issue', 'it problem'],
  'password-reset': ['password reset', 'password'],
  'info-update': ['info update', 'information update', 'personal details', 'address change', 'details update'],
  'expense-reimbursement': ['expense', 'expenses', 'reimbursement', 'expense claim'],
  'it-access': ['it access', 'access request', 'system access'],
  'employee-onboarding': ['onboarding', 'new hire'],
  'exit-clearance': ['exit clearance', 'exit', 'clearance'],
  'medical-claim': ['medical claim', 'medical'],
  'mileage-claim': ['mileage claim', 'mileage'],
  'transport-request': ['transport', 'cab', 'taxi', 'shuttle'],
  'facility-access': ['facility access', 'access card', 'building access', 'badge'],
  'maintenance-request': ['maintenance', 'repair'],
  'safety-incident': ['safety incident', 'safety', 'accident'],
  'nda-request': ['nda', 'non-disclosure'],
  'contract-approval': ['contract'],
  'equipment-request': ['equipment'],
  'training-request': ['training', 'course'],
  'event-participation': ['event', 'event participation'],
};
