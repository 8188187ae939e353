// Unit tests of the catalogue: the three spec entries with all their fields, coming-soon entries, search, category, sort.
import { describe, expect, it } from 'vitest';
import { CATALOGUE, CATALOGUE_CATEGORIES, PRIORITY_RANK, catalogueEntry, filterCatalogue, sortCatalogue } from './catalogue';
import { FORM_TYPES, STAGES } from './forms';

describe('catalogue entries', () => {
  it('offers the three spec forms first, with their ids, times and required approvals', () => {
    const active = CATALOGUE.slice(0, 3);
    expect(active.map((e) => [e.id, e.title, e.formType, e.estimatedTime, e.requiredApprovals])).toEqual([
      ['FAC-AC-15', 'Facility Access Booking Form', 'facility-access', '5-10 min', ['Line Manager', 'Security Officer']],
      ['IT-PWD-16', 'Password Reset Request Form', 'password-reset', '3-5 min', ['Line Manager', 'IT Helpdesk']],
      ['FIN-PR-08', 'Purchase Requisition Form', 'purchase-requisition', '10-15 min', ['Department Head', 'Finance Officer']],
    ]);
    expect(active.map((e) => e.category)).toEqual(['Facilities & Operations', 'Information Technology', 'Finance']);
  });

  it('every entry has every catalogue field', () => {
    for (const e of CATALOGUE) {
      for (const k of [
        'id',
        'title',
        'description',
        'category',
        'icon',
        'color',
        'bgColor',
        'status',
        'estimatedTime',
        'formType',
        'priority',
      ] as const) {
        expect(String(e[k]).length, `${e.id}.${k}`).toBeGreaterThan(0);
      }
      expect(e.requiredApprovals.length).toBeGreaterThan(0);
      expect(e.keywords.length).toBeGreaterThan(0);
      expect(['high', 'medium', 'low']).toContain(e.priority);
    }
  });

  it('offers every form type of the registry once, all active, with unique ids', () => {
    expect(CATALOGUE.map((e) => e.formType).sort()).toEqual(FORM_TYPES.map((t) => t.formType).sort());
    expect(CATALOGUE.filter((e) => e.status !== 'active')).toEqual([]);
    expect(new Set(CATALOGUE.map((e) => e.id)).size).toBe(CATALOGUE.length);
  });

  it("each entry's approval chain is the registry chain in the product's words", () => {
    expect(catalogueEntry('leave-request')?.approvalChain).toEqual(['Line Manager', 'HR']);
    expect(catalogueEntry('travel-request')?.approvalChain).toEqual(['Line Manager', 'Finance']);
    expect(catalogueEntry('meeting-room')?.approvalChain).toEqual(['Facilities Desk', 'Facilities Manager']);
    expect(catalogueEntry('it-incident')?.approvalChain).toEqual(['IT Helpdesk']);
    // The spec's texts stay for its three forms, though others decide (README: 'Who approves the catalogue forms').
    expect(catalogueEntry('FAC-AC-15')?.approvalChain).toEqual(['Facilities Desk', 'Facilities Manager']);
    expect(catalogueEntry('IT-PWD-16')?.approvalChain).toEqual(['IT Helpdesk']);
    expect(catalogueEntry('FIN-PR-08')?.approvalChain).toEqual(['Line Manager', 'Finance']);
    for (const e of CATALOGUE) {
      const def = FORM_TYPES.find((t) => t.formType === e.formType)!;
      expect(e.approvalChain).toEqual(def.chain.map((s) => STAGES[s].label));
    }
  });

  it('finds entries by id or form type', () => {
    expect(catalogueEntry('FIN-PR-08')?.formType).toBe('purchase-requisition');
    expect(catalogueEntry('password-reset')?.id).toBe('IT-PWD-16');
    expect(catalogueEntry('nope')).toBeUndefined();
  });
});

describe('search and category', () => {
  it('category dropdown options', () => {
    expect(CATALOGUE_CATEGORIES).toEqual(['All Forms', 'Human Resources', 'Finance', 'Information Technology', 'Facilities & Operations']);
  });

  it('filters by category', () => {
    const fin = filterCatalogue(CATALOGUE, '', 'Finance');
    expect(fin.length).toBeGreaterThan(0);
    expect(fin.every((e) => e.category === 'Finance')).toBe(true);
    expect(filterCatalogue(CATALOGUE, '', 'All Forms')).toHaveLength(CATALOGUE.length);
  });

  it('search matches title, description or keywords, case-insensitively', () => {
    expect(filterCatalogue(CATALOGUE, 'PASSWORD', 'All Forms').map((e) => e.id)).toContain('IT-PWD-16');
    expect(filterCatalogue(CATALOGUE, 'access card', 'All Forms').map((e) => e.id)).toContain('FAC-AC-15'); // description
    expect(filterCatalogue(CATALOGUE, 'procurement', 'All Forms').map((e) => e.id)).toContain('FIN-PR-08'); // keyword
    expect(filterCatalogue(CATALOGUE, 'zzzz-nothing', 'All Forms')).toEqual([]);
  });

  it('a search term overrides the category filter', () => {
    const r = filterCatalogue(CATALOGUE, 'password', 'Finance');
    expect(r.map((e) => e.id)).toContain('IT-PWD-16');
    expect(filterCatalogue(CATALOGUE, '   ', 'Finance').every((e) => e.category === 'Finance')).toBe(true);
  });
});

describe('sort', () => {
  it('by name', () => {
    const titles = sortCatalogue(CATALOGUE, 'name').map((e) => e.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
  });
  it('by category then title', () => {
    const s = sortCatalogue(CATALOGUE, 'category');
    for (let i = 1; i < s.length; i += 1) expect(s[i - 1].category.localeCompare(s[i].category)).toBeLessThanOrEqual(0);
  });
  it('by priority high > medium > low', () => {
    expect(PRIORITY_RANK).toEqual({ high: 3, medium: 2, low: 1 });
    const ranks = sortCatalogue(CATALOGUE, 'priority').map((e) => PRIORITY_RANK[e.priority]);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(sortCatalogue(CATALOGUE, 'priority')[0].priority).toBe('high');
  });
  it('does not change the input', () => {
    const before = CATALOGUE.map((e) => e.id);
    sortCatalogue(CATALOGUE, 'name');
    expect(CATALOGUE.map((e) => e.id)).toEqual(before);
  });
});
