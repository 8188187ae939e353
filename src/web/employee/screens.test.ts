// Unit tests of the current-form value -> screen table: dashboard, catalogue, submit forms, history screens, fallback.
import { describe, expect, it } from 'vitest';
import { FORM_TYPES, formTypeDef, putFormTypeDef } from '../../domain/forms';
import { genericHistoryTypes, historyMenu, screenFor } from './screens';

describe('screenFor', () => {
  it('none is the dashboard, all-forms the catalogue', () => {
    expect(screenFor(null)).toEqual({ kind: 'dashboard' });
    expect(screenFor('')).toEqual({ kind: 'dashboard' });
    expect(screenFor('all-forms')).toEqual({ kind: 'catalogue' });
  });
  it('facility-access and password-reset open their forms', () => {
    expect(screenFor('facility-access')).toEqual({ kind: 'submit', formType: 'facility-access' });
    expect(screenFor('password-reset')).toEqual({ kind: 'submit', formType: 'password-reset' });
  });
  it('the specific history screens', () => {
    expect(screenFor('leave-request')).toEqual({ kind: 'history', history: 'leave', formType: 'leave-request' });
    expect(screenFor('expense-reimbursement')).toMatchObject({ history: 'expense' });
    expect(screenFor('training-request')).toMatchObject({ history: 'training' });
    expect(screenFor('equipment-request')).toMatchObject({ history: 'equipment' });
    expect(screenFor('purchase-requisition')).toMatchObject({ history: 'purchase-requisition' });
  });
  it('it-support and it-access both show the IT access history', () => {
    expect(screenFor('it-support')).toEqual({ kind: 'history', history: 'it-access', formType: 'it-access' });
    expect(screenFor('it-access')).toEqual({ kind: 'history', history: 'it-access', formType: 'it-access' });
  });
  it('the generic history serves every registry type without a screen of its own (event participation too)', () => {
    expect(genericHistoryTypes()).toContain('event-participation');
    for (const t of genericHistoryTypes()) expect(screenFor(t)).toEqual({ kind: 'history', history: 'generic', formType: t });
    // no registry type falls back to the catalogue
    for (const t of FORM_TYPES.map((d) => d.formType)) expect(screenFor(t).kind, t).not.toBe('catalogue');
  });
  it('with ?new=1 every form type opens its submit form; the requisition keeps its history with the form in a dialog', () => {
    for (const t of FORM_TYPES.map((d) => d.formType).filter((t) => t !== 'purchase-requisition'))
      expect(screenFor(t, true), t).toEqual({ kind: 'submit', formType: t });
    expect(screenFor('purchase-requisition', true)).toEqual({
      kind: 'history',
      history: 'purchase-requisition',
      formType: 'purchase-requisition',
    });
    expect(screenFor('leave-request', false)).toEqual({ kind: 'history', history: 'leave', formType: 'leave-request' });
    expect(screenFor('all-forms', true)).toEqual({ kind: 'catalogue' });
    expect(screenFor('no-such-form', true)).toEqual({ kind: 'catalogue' });
  });

  it("the History menu is read from the registry when drawn: an administrator's type joins it, a disabled one leaves", () => {
    expect(
      historyMenu()
        .slice(0, 6)
        .map((h) => h.label),
    ).toEqual(['Leave', 'Expense', 'IT Access', 'Training', 'Equipment', 'Purchase Requisition']);
    expect(historyMenu().map((h) => h.value)).not.toContain('team-offsite');
    // As forms/form-types-sync.ts puts a type the server has and the bundle was built without.
    const base = formTypeDef('event-participation')!;
    putFormTypeDef({ ...base, formType: 'team-offsite', title: 'Team Offsite', idPrefix: 'OFF', enabled: true });
    expect(historyMenu()).toContainEqual({ value: 'team-offsite', label: 'Team Offsite' });
    expect(screenFor('team-offsite')).toEqual({ kind: 'history', history: 'generic', formType: 'team-offsite' });
    putFormTypeDef({ ...formTypeDef('team-offsite')!, enabled: false });
    expect(historyMenu().map((h) => h.value)).not.toContain('team-offsite');
    // Its requests' links still open its history.
    expect(screenFor('team-offsite')).toEqual({ kind: 'history', history: 'generic', formType: 'team-offsite' });
  });

  it('unknown values fall back to the catalogue', () => {
    expect(screenFor('teleport-request')).toEqual({ kind: 'catalogue' });
  });
});
