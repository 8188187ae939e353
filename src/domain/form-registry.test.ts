// The registry is the one source of per-type facts: the lists other modules used to repeat are derived from it
// and say what the chains say; each entry is complete; the spec's three catalogue forms keep the spec's texts.
import { describe, expect, it } from 'vitest';
import {
  FACILITIES_FORM_TYPES,
  FINANCE_FORM_TYPES,
  HR_FORM_TYPES,
  MANAGER_CHIP_TYPES,
  MANAGER_VIEW_ONLY_TYPES,
  QUICK_REJECTION_REASONS,
  isManagerQueueType,
} from './approvals';
import { CATALOGUE } from './catalogue';
import {
  DATE_WINDOWS,
  FORM_TYPES,
  chainInWords,
  detailsOf,
  formTypesOfKind,
  formTypesWithStage,
  initialStatusOf,
  itLifecycleOf,
  registerFormType,
  successMessageOf,
} from './forms';

const types = (stage: Parameters<typeof formTypesWithStage>[0]) =>
  FORM_TYPES.filter((t) => t.chain.includes(stage))
    .map((t) => t.formType)
    .sort();

describe('lists derived from the registry', () => {
  it('finance, facilities and HR types are the types whose chain has that stage', () => {
    expect([...FINANCE_FORM_TYPES].sort()).toEqual(types('finance'));
    expect([...FINANCE_FORM_TYPES].sort()).toEqual(['petty-cash', 'purchase-requisition', 'travel-request']);
    expect([...FACILITIES_FORM_TYPES].sort()).toEqual(['facility-access', 'meeting-room']);
    expect(formTypesWithStage('facilities_manager').sort()).toEqual(types('facilities_desk'));
    expect([...HR_FORM_TYPES].sort()).toEqual(['info-update', 'leave-request']);
  });

  it("the IT tickets are the manager's view-only types and the types of the IT helpdesk stage", () => {
    expect(MANAGER_VIEW_ONLY_TYPES).toEqual(['it-incident', 'password-reset']);
    expect(formTypesOfKind('it-ticket').sort()).toEqual(types('it_helpdesk'));
    expect(itLifecycleOf('it-incident')).toBe('incident');
    expect(itLifecycleOf('password-reset')).toBe('password-reset');
    expect(itLifecycleOf('leave-request')).toBeNull();
    for (const t of FORM_TYPES)
      expect(isManagerQueueType(t.formType), t.formType).toBe(t.chain.includes('line_manager') || t.kind === 'it-ticket');
  });

  it("the manager's chips keep the spec's order", () => {
    expect(MANAGER_CHIP_TYPES).toEqual([
      'leave-request',
      'travel-request',
      'petty-cash',
      'purchase-requisition',
      'it-incident',
      'password-reset',
    ]);
  });

  it('initial statuses, success messages and date windows', () => {
    expect(initialStatusOf('it-incident')).toBe('Open');
    expect(initialStatusOf('password-reset')).toBe('Pending');
    expect(initialStatusOf('leave-request')).toBe('Pending');
    expect(successMessageOf('facility-access')).toBe('Form submitted successfully!');
    expect(successMessageOf('password-reset')).toBe('Password reset request submitted successfully!');
    expect(successMessageOf('purchase-requisition')).toBe('Purchase requisition submitted successfully!');
    expect(successMessageOf('leave-request')).toBe('Request submitted successfully!');
    expect(DATE_WINDOWS['leave-request']).toEqual({
      fields: ['start_date', 'end_date'],
      what: 'A leave',
      back: 366,
      ahead: 731,
      maxDays: 366,
    });
    expect(DATE_WINDOWS['travel-request'].fields).toEqual(['departure_date', 'return_date']);
    expect(DATE_WINDOWS['meeting-room'].fields).toEqual(['booking_date']);
  });
});

describe('every entry', () => {
  it('names only its own fields, known reason sets, and has catalogue texts', () => {
    for (const t of FORM_TYPES) {
      const names = new Set(t.fields.map((f) => f.name));
      for (const k of [
        t.amountField,
        t.purposeField,
        t.todayDefault,
        t.computedTotal?.field,
        t.computedTotal?.quantity,
        t.computedTotal?.unitCost,
      ]) {
        if (k !== undefined) expect(names.has(k), `${t.formType}.${k}`).toBe(true);
      }
      if (t.rejectionReasons !== undefined) expect(Object.keys(QUICK_REJECTION_REASONS), t.formType).toContain(t.rejectionReasons);
      expect(t.catalogue.description.length, t.formType).toBeGreaterThan(0);
      expect(t.chain.length, t.formType).toBeGreaterThan(0);
      expect(t.kind === 'it-ticket', t.formType).toBe(t.itLifecycle !== undefined);
    }
  });

  it('details cards list field names once, each a field of the type or a field the workflow adds', () => {
    for (const t of FORM_TYPES) {
      const d = detailsOf(t.formType);
      if (!d) continue;
      const names = d.fields.map((x) => x.name);
      expect(new Set(names).size, t.formType).toBe(names.length);
    }
    expect(detailsOf('purchase-requisition')!.fields.map((x) => x.name)).toEqual([
      'item_description',
      'quantity',
      'unit_cost',
      'estimated_total',
      'purpose_of_purchase',
    ]);
    expect(detailsOf('nda-request')).toBeNull();
  });
});

describe('catalogue from the registry', () => {
  it("keeps the spec's texts for its three forms and says every other type's real chain", () => {
    const byType = new Map(CATALOGUE.map((e) => [e.formType, e]));
    expect(byType.get('facility-access')!.requiredApprovals).toEqual(['Line Manager', 'Security Officer']);
    expect(byType.get('facility-access')!.approvalChain).toEqual(['Facilities Desk', 'Facilities Manager']);
    expect(byType.get('purchase-requisition')!.requiredApprovals).toEqual(['Department Head', 'Finance Officer']);
    expect(byType.get('purchase-requisition')!.approvalChain).toEqual(['Line Manager', 'Finance']);
    for (const e of CATALOGUE.filter((x) => x.status !== 'active'))
      expect(e.requiredApprovals, e.formType).toEqual(chainInWords(e.formType));
    expect(byType.get('leave-request')!.requiredApprovals).toEqual(['Line Manager', 'HR']);
  });
});

describe('registerFormType', () => {
  const base = FORM_TYPES.find((t) => t.formType === 'nda-request')!;
  it('refuses a duplicate name or id prefix, unknown stages and fields the type does not have', () => {
    expect(() => registerFormType({ ...base })).toThrow(/already registered/);
    expect(() => registerFormType({ ...base, formType: 'nda-two' })).toThrow(/prefix NDA is already used/);
    expect(() => registerFormType({ ...base, formType: 'nda-two', idPrefix: 'ND2', chain: ['board' as never] })).toThrow(/known stages/);
    expect(() => registerFormType({ ...base, formType: 'nda-two', idPrefix: 'ND2', amountField: 'nope' })).toThrow(/does not have: nope/);
    expect(() => registerFormType({ ...base, formType: 'nda-two', idPrefix: 'ND2', kind: 'it-ticket' })).toThrow(/IT lifecycle/);
    expect(FORM_TYPES.some((t) => t.formType === 'nda-two')).toBe(false);
  });
});
