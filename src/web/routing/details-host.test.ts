// Which part of a dashboard shows a request opened by URL: one place per request, by the same rule everywhere.
import { describe, expect, it } from 'vitest';
import { detailsHost } from './details-host';

const ME = 7;
const other = (form_type: string) => ({ form_type, employee_user_id: 99 });

describe('detailsHost', () => {
  it('opens the person own requests as their own details on every dashboard', () => {
    for (const kind of ['employee', 'line_manager', 'hr', 'finance', 'facilities_desk', 'facilities_manager', 'it'] as const)
      expect(detailsHost(kind, ME, { form_type: 'leave-request', employee_user_id: ME }), kind).toBe('own');
    expect(detailsHost('finance', '7', { form_type: 'petty-cash', employee_user_id: 7 })).toBe('own');
  });

  it('opens a request of the dashboard stage in the dashboard, and any other in the team section', () => {
    expect(detailsHost('finance', ME, other('petty-cash'))).toBe('dashboard');
    expect(detailsHost('finance', ME, other('leave-request'))).toBe('team');
    expect(detailsHost('hr', ME, other('leave-request'))).toBe('dashboard');
    expect(detailsHost('hr', ME, other('travel-request'))).toBe('team');
    expect(detailsHost('facilities_desk', ME, other('meeting-room'))).toBe('dashboard');
    expect(detailsHost('facilities_manager', ME, other('facility-access'))).toBe('dashboard');
    expect(detailsHost('it', ME, other('it-incident'))).toBe('dashboard');
    expect(detailsHost('it', ME, other('password-reset'))).toBe('dashboard');
    expect(detailsHost('it', ME, other('leave-request'))).toBe('team');
    expect(detailsHost('line_manager', ME, other('leave-request'))).toBe('team');
    expect(detailsHost('line_manager', ME, other('it-incident'))).toBe('team');
  });

  it('on the employee dashboard everything opens in the employee details', () => {
    expect(detailsHost('employee', ME, other('leave-request'))).toBe('own');
  });
});
