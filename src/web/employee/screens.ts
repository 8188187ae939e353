// Which screen the employee dashboard shows for a current-form value: none is the dashboard,
// 'all-forms' the catalogue, the three catalogue forms their submit screens, the others a history screen, or with
// ?new=1 (a form opened from the catalogue or a history's 'New request') their generated submit form; unknown
// values fall back to the catalogue. The value lives in the URL (?form=...), so Back works.
import { FORM_TYPES, formTitle, isFormType } from '../../domain/forms';

export type HistoryKind = 'leave' | 'expense' | 'training' | 'equipment' | 'it-access' | 'purchase-requisition' | 'generic';

export type Screen =
  | { kind: 'dashboard' }
  | { kind: 'catalogue' }
  | { kind: 'submit'; formType: string }
  | { kind: 'history'; history: HistoryKind; formType: string };

const SPECIFIC: Record<string, { history: HistoryKind; formType: string }> = {
  'leave-request': { history: 'leave', formType: 'leave-request' },
  'expense-reimbursement': { history: 'expense', formType: 'expense-reimbursement' },
  'training-request': { history: 'training', formType: 'training-request' },
  'equipment-request': { history: 'equipment', formType: 'equipment-request' },
  // 'it-support' and 'it-access' both show the IT access history.
  'it-support': { history: 'it-access', formType: 'it-access' },
  'it-access': { history: 'it-access', formType: 'it-access' },
  'purchase-requisition': { history: 'purchase-requisition', formType: 'purchase-requisition' },
};

/** The spec's two forms whose value opens their submit screen (they have no history screen). */
const SUBMIT_ONLY = new Set(['facility-access', 'password-reset']);

/**
 * Form types with the generic history view: every enabled registry type without a history screen of its own, read
 * from the registry when asked (an administrator's types join it after the bundle loads: forms/form-types-sync.ts).
 * `screenFor` gives the generic screen to any known type, disabled or not, so an old link still opens.
 */
export function genericHistoryTypes(): string[] {
  return FORM_TYPES.filter((t) => t.enabled !== false && !SPECIFIC[t.formType] && !SUBMIT_ONLY.has(t.formType)).map((t) => t.formType);
}

/**
 * The screen of a current-form value; `startNew` (?new=1) opens a form type's submit form instead of its history
 * (the purchase requisition keeps its history screen, whose form opens in a dialog).
 */
export function screenFor(current: string | null | undefined, startNew = false): Screen {
  const v = (current ?? '').trim();
  if (v === '' || v === 'none') return { kind: 'dashboard' };
  if (v === 'all-forms') return { kind: 'catalogue' };
  if (SUBMIT_ONLY.has(v)) return { kind: 'submit', formType: v };
  if (startNew && v !== 'purchase-requisition' && isFormType(v)) return { kind: 'submit', formType: v };
  if (SPECIFIC[v]) return { kind: 'history', ...SPECIFIC[v] };
  // every other registry type, also one registered at run time, has the generic history screen at its URL
  if (isFormType(v)) return { kind: 'history', history: 'generic', formType: v };
  return { kind: 'catalogue' };
}

/** The spec's history screens, first in the 'History' menu. */
const SPEC_HISTORY_MENU: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'leave-request', label: 'Leave' },
  { value: 'expense-reimbursement', label: 'Expense' },
  { value: 'it-access', label: 'IT Access' },
  { value: 'training-request', label: 'Training' },
  { value: 'equipment-request', label: 'Equipment' },
  { value: 'purchase-requisition', label: 'Purchase Requisition' },
];

/**
 * The dashboard's 'History' menu (value: the current-form value that opens the screen): the spec's screens, then every
 * other enabled type under its title, as the registry is when the menu is drawn (an administrator's types included).
 */
export function historyMenu(): Array<{ value: string; label: string }> {
  return [...SPEC_HISTORY_MENU, ...genericHistoryTypes().map((t) => ({ value: t, label: formTitle(t) }))];
}
