// Unit tests of the web's URL table: current-form values <-> paths, request paths, what is a client route (the
// server's SPA fallback), and the redirect of old ?form= addresses.
import { describe, expect, it } from 'vitest';
import { genericHistoryTypes, historyMenu, screenFor } from '../employee/screens';
import { CLIENT_ROUTE_PATTERNS, formPath, isClientRoute, legacyFormRedirect, parseWebPath, requestPath } from '../../domain/web-routes';

describe('formPath and parseWebPath', () => {
  it('maps the spec current-form values onto routes', () => {
    expect(formPath(null)).toBe('/');
    expect(formPath('')).toBe('/');
    expect(formPath('none')).toBe('/');
    expect(formPath('all-forms')).toBe('/forms');
    expect(formPath('leave-request')).toBe('/forms/leave-request');
    expect(formPath('purchase-requisition', { new: true })).toBe('/forms/purchase-requisition/new');
    expect(formPath('it-support')).toBe('/forms/it-support');
    // Values that cannot be a path segment fall back to the catalogue, as unknown values do.
    expect(formPath('../admin')).toBe('/forms');
    expect(formPath('Leave Request')).toBe('/forms');
  });

  it('reads every route back, and each spec value opens the same screen through its path', () => {
    expect(parseWebPath('/')).toEqual({ form: null, startNew: false, requestId: null });
    expect(parseWebPath('/forms')).toEqual({ form: 'all-forms', startNew: false, requestId: null });
    expect(parseWebPath('/forms/')).toEqual({ form: 'all-forms', startNew: false, requestId: null });
    expect(parseWebPath('/forms/travel-request')).toEqual({ form: 'travel-request', startNew: false, requestId: null });
    expect(parseWebPath('/forms/purchase-requisition/new')).toEqual({ form: 'purchase-requisition', startNew: true, requestId: null });
    expect(parseWebPath('/requests/LR-000123')).toEqual({ form: null, startNew: false, requestId: 'LR-000123' });
    expect(parseWebPath('/requests/42')).toEqual({ form: null, startNew: false, requestId: '42' });

    const values = ['none', 'all-forms', 'facility-access', 'password-reset', 'it-support', ...historyMenu().map((h) => h.value)];
    for (const v of values) {
      const route = parseWebPath(formPath(v));
      expect(route, v).not.toBeNull();
      expect(screenFor(route!.form), v).toEqual(screenFor(v));
    }
    for (const t of genericHistoryTypes())
      expect(screenFor(parseWebPath(`/forms/${t}`)!.form)).toMatchObject({ kind: 'history', formType: t });
    // An unknown value is still a route; its screen is the catalogue.
    expect(screenFor(parseWebPath('/forms/teleport-request')!.form)).toEqual({ kind: 'catalogue' });
  });

  it('refuses paths that are no screen', () => {
    for (const p of [
      '/nowhere',
      '/api/forms/user-forms',
      '/ai/status',
      '/metrics',
      '/forms/Leave_Request',
      '/forms/leave-request/edit',
      '/forms/a/new/x',
      '/requests',
      '/requests/LR-1/extra',
      '/requests/LR.1',
      '/requests/%E0%A4%A',
      '/assets/index-abc.js',
    ])
      expect(parseWebPath(p), p).toBeNull();
  });

  it('the route patterns and the parser agree', () => {
    const samples: Record<string, string> = {
      '/': '/',
      '/forms': '/forms',
      '/forms/:form': '/forms/leave-request',
      '/forms/:form/new': '/forms/leave-request/new',
      '/requests/:requestId': '/requests/LR-000001',
    };
    expect(Object.keys(samples).sort()).toEqual([...CLIENT_ROUTE_PATTERNS].sort());
    for (const p of Object.values(samples)) expect(isClientRoute(p), p).toBe(true);
  });
});

describe('requestPath', () => {
  it('builds the details URL of a request and reads it back', () => {
    expect(requestPath('LR-000123')).toBe('/requests/LR-000123');
    expect(requestPath(17)).toBe('/requests/17');
    expect(requestPath('a/b')).toBe('/requests/a%2Fb');
    expect(parseWebPath(requestPath('FAC-000009'))?.requestId).toBe('FAC-000009');
    // An id that is not one is not a route (the server then answers 404 instead of the page).
    expect(isClientRoute(requestPath('a/b'))).toBe(false);
  });
});

describe('legacyFormRedirect', () => {
  it('sends old ?form= addresses to their route and keeps the other params', () => {
    expect(legacyFormRedirect('?form=leave-request')).toBe('/forms/leave-request');
    expect(legacyFormRedirect('?form=all-forms')).toBe('/forms');
    expect(legacyFormRedirect('?form=none')).toBe('/');
    expect(legacyFormRedirect('?form=')).toBe('/');
    expect(legacyFormRedirect('?form=purchase-requisition&new=1')).toBe('/forms/purchase-requisition/new');
    expect(legacyFormRedirect('?form=it-access&status=Pending')).toBe('/forms/it-access?status=Pending');
    expect(legacyFormRedirect('?form=teleport-request')).toBe('/forms/teleport-request');
    expect(legacyFormRedirect('?form=%3Cscript%3E')).toBe('/forms');
  });

  it('leaves addresses without a form value alone', () => {
    expect(legacyFormRedirect('')).toBeNull();
    expect(legacyFormRedirect('?status=Pending')).toBeNull();
  });
});
