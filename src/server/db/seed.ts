// The demo organisation (demo-org.json, a copy of shared/seed/demo-org.json kept equal by `npm run check:shared`) and
// sample requests in every state, so that every dashboard, filter and chip shows data on first start.
// Idempotent: it only loads into a database without users. The database is marked as a demo database
// (installation_settings), which demo mode requires.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, businessToday, startOfBusinessDate } from '../../domain/business-time.js';
import { type Stage, formTypeDef, initialStatusOf } from '../../domain/forms.js';
import { markDemoDatabase } from '../auth/demo-mode.js';
import { hashPassword } from '../auth/service.js';
import { recordEvent } from '../events/service.js';
import { workingDays } from '../forms/leave.js';
import { type SealKeyConfig, sealForSeed } from '../it-desk/service.js';
import { loadConfig } from '../config.js';
import { insertRequest } from '../requests/repo.js';
import type { Db, Queryable } from './pool.js';

export interface DemoOrg {
  company: string;
  demo_password: string;
  departments: Array<{ code: string; name: string }>;
  users: Array<{
    email: string;
    first_name: string;
    last_name: string;
    role: string;
    user_type: string;
    department: string;
    employee_code: string;
    hr_id?: string;
    manager: string | null;
    hr_contact: string | null;
    join_date: string;
    group: string;
  }>;
}

export const demoOrg: DemoOrg = JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-org.json'), 'utf8'));

const DAY = 86_400_000;

type D = 'A' | 'R' | 'P';

interface Scenario {
  who: string; // email
  type: string;
  daysAgo: number;
  data: Record<string, unknown>;
  decisions?: D[];
  reason?: string;
  status?: string;
  extra?: Record<string, unknown>;
}

/** Loads the demo organisation and its sample requests into an empty database. */
/**
 * Loads the demo organisation into an empty database. `keys` says which key seals the sample reset password
 * (the server's configuration; by default the one of this process's environment).
 */
export async function seedDemo(
  db: Db,
  now: Date = new Date(),
  keys: SealKeyConfig = loadConfig(),
): Promise<{ users: number; requests: number } | undefined> {
  return db.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock(742002)');
    const existing = await c.query('SELECT count(*)::int AS n FROM users');
    if (existing.rows[0].n > 0) return undefined;

    for (const d of demoOrg.departments) await c.query('INSERT INTO departments (code, name) VALUES ($1, $2)', [d.code, d.name]);
    const passwordHash = await hashPassword(demoOrg.demo_password);
    const ids = new Map<string, number>();
    for (const u of demoOrg.users) {
      const r = await c.query(
        `INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, department_code, employee_code, hr_id, join_date)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [
          u.email,
          passwordHash,
          u.first_name,
          u.last_name,
          u.role,
          u.user_type,
          u.department,
          u.employee_code,
          u.hr_id ?? null,
          u.join_date,
        ],
      );
      ids.set(u.email, r.rows[0].id);
    }
    for (const u of demoOrg.users) {
      await c.query('UPDATE users SET manager_id = $2, hr_contact_id = $3 WHERE id = $1', [
        ids.get(u.email),
        u.manager ? ids.get(u.manager) : null,
        u.hr_contact ? ids.get(u.hr_contact) : null,
      ]);
    }
    const n = await seedRequests(c, ids, now, keys);
    await markDemoDatabase(c);
    return { users: demoOrg.users.length, requests: n };
  });
}

async function seedRequests(c: Queryable, ids: Map<string, number>, now: Date, keys: SealKeyConfig): Promise<number> {
  // Sample dates count from the organisation's today, not the server's.
  const today = businessToday(now);
  const day = (offset: number) => addDays(today, offset);
  const midnight = startOfBusinessDate(today).getTime();
  const userByEmail = new Map(demoOrg.users.map((u) => [u.email, u]));
  const nameOf = (email: string) => {
    const u = userByEmail.get(email)!;
    return `${u.first_name} ${u.last_name}`;
  };
  const stageSigner = (stage: Stage, emp: string): string => {
    const u = userByEmail.get(emp)!;
    switch (stage) {
      case 'line_manager':
        return u.manager ?? 'victoria.adams@adminease.test';
      case 'hr':
        return u.hr_contact ?? 'meera.iyer@adminease.test';
      case 'finance':
        return 'arjun.mehta@adminease.test';
      case 'facilities_desk':
        return 'sofia.rossi@adminease.test';
      case 'facilities_manager':
        return 'kenji.watanabe@adminease.test';
      case 'it_helpdesk':
        return 'lena.fischer@adminease.test';
    }
  };
  const leave = (type: string, from: number, to: number, reason: string) => ({
    leave_type: type,
    start_date: day(from),
    end_date: day(to),
    total_days: workingDays(day(from), day(to)),
    reason, // the leave form's own count
  });
  const A = 'alex.johnson@adminease.test',
    M = 'maria.garcia@adminease.test',
    S = 'sam.wilson@adminease.test';
  const C = 'chloe.martin@adminease.test',
    N = 'nina.patel@adminease.test',
    R = 'rahul.verma@adminease.test';
  const P = 'priya.sharma@adminease.test',
    DO = 'daniel.okafor@adminease.test';

  const scenarios: Scenario[] = [
    // Leave: line manager then HR
    { who: A, type: 'leave-request', daysAgo: 150, data: leave('Annual', -140, -138, 'Family visit'), decisions: ['A', 'A'] },
    { who: A, type: 'leave-request', daysAgo: 3, data: leave('Annual', 24, 25, 'Long weekend trip'), decisions: ['P', 'P'] },
    { who: M, type: 'leave-request', daysAgo: 60, data: leave('Sick', -61, -60, 'Flu'), decisions: ['A', 'A'] },
    { who: M, type: 'leave-request', daysAgo: 5, data: leave('Annual', 17, 19, 'Moving house'), decisions: ['A', 'P'] },
    {
      who: S,
      type: 'leave-request',
      daysAgo: 40,
      data: leave('Annual', -30, -29, 'Personal errands'),
      decisions: ['R', 'P'],
      reason: 'Quarter-end sales push; please pick another week',
    },
    { who: S, type: 'leave-request', daysAgo: 20, data: leave('Unpaid', -10, -10, 'Visa appointment'), decisions: ['A', 'A'] },
    {
      who: C,
      type: 'leave-request',
      daysAgo: 8,
      data: leave('Annual', 30, 32, 'Wedding'),
      decisions: ['A', 'R'],
      reason: 'Overlaps the HR blackout for year-end payroll',
    },
    { who: N, type: 'leave-request', daysAgo: 2, data: leave('Casual', 10, 10, 'Home repairs'), decisions: ['P', 'P'] },
    { who: R, type: 'leave-request', daysAgo: 12, data: leave('Annual', 14, 15, 'Conference recovery'), decisions: ['A', 'P'] },
    { who: P, type: 'leave-request', daysAgo: 100, data: leave('Annual', -90, -88, 'Vacation'), decisions: ['A', 'A'] },
    // Travel, petty cash, purchase requisition: line manager then finance
    {
      who: A,
      type: 'travel-request',
      daysAgo: 9,
      data: {
        destination: 'Munich',
        departure_date: day(20),
        return_date: day(22),
        travel_purpose: 'Supplier audit',
        total_estimated_cost: 1450,
      },
      decisions: ['A', 'P'],
    },
    {
      who: S,
      type: 'travel-request',
      daysAgo: 4,
      data: {
        destination: 'Singapore',
        departure_date: day(35),
        return_date: day(40),
        travel_purpose: 'Regional sales kick-off',
        total_estimated_cost: 3200,
      },
      decisions: ['P', 'P'],
    },
    {
      who: C,
      type: 'travel-request',
      daysAgo: 80,
      data: {
        destination: 'London',
        departure_date: day(-70),
        return_date: day(-68),
        travel_purpose: 'Trade show',
        total_estimated_cost: 980,
      },
      decisions: ['A', 'A'],
    },
    {
      who: R,
      type: 'travel-request',
      daysAgo: 45,
      data: {
        destination: 'New York',
        departure_date: day(-30),
        return_date: day(-27),
        travel_purpose: 'Client negotiation',
        total_estimated_cost: 2500,
      },
      decisions: ['A', 'R'],
      reason: 'Travel budget for Q3 exhausted; join remotely',
    },
    {
      who: M,
      type: 'petty-cash',
      daysAgo: 6,
      data: { amount_requested: 45.5, expected_settlement_date: day(10), purpose: 'Team snacks for the release' },
      decisions: ['A', 'P'],
    },
    {
      who: N,
      type: 'petty-cash',
      daysAgo: 1,
      data: { amount_requested: 120, expected_settlement_date: day(14), purpose: 'Event decorations' },
      decisions: ['P', 'P'],
    },
    {
      who: C,
      type: 'petty-cash',
      daysAgo: 55,
      data: { amount_requested: 75.25, expected_settlement_date: day(-40), purpose: 'Courier charges' },
      decisions: ['A', 'A'],
    },
    {
      who: S,
      type: 'petty-cash',
      daysAgo: 33,
      data: { amount_requested: 300, expected_settlement_date: day(-20), purpose: 'Client dinner' },
      decisions: ['R', 'P'],
      reason: 'Client dinners go through expense reimbursement',
    },
    {
      who: A,
      type: 'purchase-requisition',
      daysAgo: 15,
      data: {
        item_description: '27-inch monitor',
        quantity: 2,
        unit_cost: 289.99,
        estimated_total: 579.98,
        purpose_of_purchase: 'Second screens for the QA bench',
      },
      decisions: ['A', 'P'],
    },
    {
      who: R,
      type: 'purchase-requisition',
      daysAgo: 7,
      data: {
        item_description: 'Legal research database seat',
        quantity: 1,
        unit_cost: 1200,
        estimated_total: 1200,
        purpose_of_purchase: 'Case law research',
      },
      decisions: ['P', 'P'],
    },
    {
      who: M,
      type: 'purchase-requisition',
      daysAgo: 120,
      data: {
        item_description: 'Ergonomic keyboard',
        quantity: 1,
        unit_cost: 89,
        estimated_total: 89,
        purpose_of_purchase: 'RSI prevention',
      },
      decisions: ['A', 'A'],
    },
    {
      who: N,
      type: 'purchase-requisition',
      daysAgo: 70,
      data: {
        item_description: 'Stock photo subscription',
        quantity: 12,
        unit_cost: 29,
        estimated_total: 348,
        purpose_of_purchase: 'Campaign visuals',
      },
      decisions: ['A', 'R'],
      reason: 'Use the company-wide image library licence',
    },
    // Facilities: desk then manager
    {
      who: C,
      type: 'meeting-room',
      daysAgo: 2,
      data: { room_requested: 'Board Room', booking_date: day(6), start_time: '10:00', end_time: '11:30', participants_count: 8 },
      decisions: ['P', 'P'],
    },
    {
      who: A,
      type: 'meeting-room',
      daysAgo: 10,
      data: { room_requested: 'Conference Room B', booking_date: day(3), start_time: '14:00', end_time: '15:00', participants_count: 4 },
      decisions: ['A', 'P'],
    },
    {
      who: R,
      type: 'meeting-room',
      daysAgo: 30,
      data: { room_requested: 'Huddle Room 2', booking_date: day(-25), start_time: '09:00', end_time: '09:30', participants_count: 3 },
      decisions: ['A', 'A'],
    },
    {
      who: S,
      type: 'meeting-room',
      daysAgo: 18,
      data: { room_requested: 'Board Room', booking_date: day(-12), start_time: '16:00', end_time: '18:00', participants_count: 12 },
      decisions: ['R', 'P'],
      reason: 'Board Room is reserved for the quarterly review',
    },
    {
      who: M,
      type: 'facility-access',
      daysAgo: 4,
      data: {
        access_request_type: 'Extended Access Hours',
        facilities_requested: 'Lab 3 after 8pm',
        justification: 'Overnight load tests',
      },
      decisions: ['P', 'P'],
    },
    {
      who: N,
      type: 'facility-access',
      daysAgo: 25,
      data: { access_request_type: 'New Access Card', facilities_requested: 'Main building, floor 4', justification: 'Lost my card' },
      decisions: ['A', 'P'],
    },
    {
      who: A,
      type: 'facility-access',
      daysAgo: 90,
      data: { access_request_type: 'Temporary Access', facilities_requested: 'Server room', justification: 'Hardware migration' },
      decisions: ['A', 'A'],
    },
    {
      who: C,
      type: 'facility-access',
      daysAgo: 50,
      data: { access_request_type: 'Other', facilities_requested: 'Rooftop terrace', justification: 'Photo shoot' },
      decisions: ['A', 'R'],
      reason: 'Rooftop closed for safety works',
    },
    // HR only: info update
    {
      who: S,
      type: 'info-update',
      daysAgo: 3,
      data: { update_type: 'Address', new_information: '12 Harbour Street, Pune', old_information: '4 Hill Road, Pune' },
      decisions: ['P'],
    },
    {
      who: M,
      type: 'info-update',
      daysAgo: 35,
      data: { update_type: 'Phone Number', new_information: '+91 98765 43210' },
      decisions: ['A'],
    },
    {
      who: C,
      type: 'info-update',
      daysAgo: 65,
      data: { update_type: 'Bank Details', new_information: 'New salary account ending 4421' },
      decisions: ['R'],
      reason: 'Please attach the cancelled cheque',
    },
    // Line manager only: the other types
    {
      who: A,
      type: 'expense-reimbursement',
      daysAgo: 14,
      data: { expense_period: 'October 2026', total_amount: 212.4, description: 'Taxi and meals during the supplier audit' },
      decisions: ['P'],
    },
    {
      who: R,
      type: 'expense-reimbursement',
      daysAgo: 75,
      data: { expense_period: 'August 2026', total_amount: 96, description: 'Court filing copies' },
      decisions: ['A'],
    },
    {
      who: M,
      type: 'it-access',
      daysAgo: 11,
      data: {
        access_type: 'New Access',
        requested_systems: 'Production log viewer',
        access_level: 'Read',
        business_justification: 'On-call rotation',
      },
      decisions: ['P'],
    },
    {
      who: P,
      type: 'employee-onboarding',
      daysAgo: 20,
      data: { new_hire_name: 'Ravi Kumar', position: 'Backend Engineer', start_date: day(12), equipment_needed: 'Laptop, two monitors' },
      decisions: ['A'],
    },
    {
      who: N,
      type: 'exit-clearance',
      daysAgo: 140,
      data: { last_working_day: day(-100), reason: 'Internal transfer paperwork (test record)' },
      decisions: ['R'],
      reason: 'Transfer handled by HR directly',
    },
    {
      who: S,
      type: 'medical-claim',
      daysAgo: 28,
      data: { treatment_date: day(-30), provider: 'City Clinic', claim_amount: 140, description: 'Physiotherapy' },
      decisions: ['A'],
    },
    {
      who: S,
      type: 'mileage-claim',
      daysAgo: 16,
      data: { travel_date: day(-17), distance_km: 84, purpose: 'Client visit in Nashik', amount_claimed: 42 },
      decisions: ['P'],
    },
    {
      who: C,
      type: 'transport-request',
      daysAgo: 3,
      data: { pickup_location: 'Office', destination: 'Airport', travel_date: day(8), travel_time: '06:30', passengers: 2 },
      decisions: ['P'],
    },
    {
      who: R,
      type: 'maintenance-request',
      daysAgo: 6,
      data: { location: 'Legal wing, room 3', issue_description: 'Air conditioning leaking', urgency: 'High' },
      decisions: ['A'],
    },
    {
      who: A,
      type: 'safety-incident',
      daysAgo: 44,
      data: { incident_date: day(-44), location: 'Stairwell B', incident_description: 'Loose handrail', severity: 'Medium' },
      decisions: ['A'],
    },
    {
      who: R,
      type: 'nda-request',
      daysAgo: 9,
      data: { counterparty: 'Contoso Ltd', purpose: 'Joint bid evaluation', effective_date: day(5) },
      decisions: ['P'],
    },
    {
      who: R,
      type: 'contract-approval',
      daysAgo: 22,
      data: {
        counterparty: 'Fabrikam Inc',
        contract_title: 'Cleaning services 2027',
        contract_value: 18000,
        start_date: day(40),
        summary: 'Annual office cleaning contract',
      },
      decisions: ['A'],
    },
    {
      who: M,
      type: 'equipment-request',
      daysAgo: 13,
      data: {
        equipment_type: 'Noise-cancelling headset',
        quantity: 1,
        estimated_cost: 180,
        priority: 'Medium',
        justification: 'Open-plan calls',
      },
      decisions: ['P'],
    },
    {
      who: A,
      type: 'training-request',
      daysAgo: 26,
      data: {
        training_program: 'Kubernetes Administrator',
        training_provider: 'Linux Foundation',
        start_date: day(30),
        end_date: day(34),
        training_cost: 395,
        justification: 'Run our clusters',
      },
      decisions: ['A'],
    },
    {
      who: N,
      type: 'event-participation',
      daysAgo: 19,
      data: {
        event_name: 'Content Marketing World',
        event_date: day(45),
        location: 'Cleveland',
        estimated_cost: 1600,
        justification: 'Campaign ideas',
      },
      decisions: ['P'],
    },
    {
      who: DO,
      type: 'travel-request',
      daysAgo: 5,
      data: {
        destination: 'Dubai',
        departure_date: day(15),
        return_date: day(18),
        travel_purpose: 'Partner summit',
        total_estimated_cost: 2800,
      },
      decisions: ['P', 'P'],
    },
    // IT incidents, every state of the lifecycle, each one that either IT dashboard or the employee can act on:
    // new; taken by IT (ticket number, still Open); resolved and waiting for the employee; reported unresolved
    // (Open, 'Update Resolution'); closed by the employee's confirmation
    {
      who: M,
      type: 'it-incident',
      daysAgo: 1,
      status: 'Open',
      data: { affected_system: 'VPN', incident_description: 'VPN drops every 10 minutes', incident_date: day(-1) },
      decisions: ['P'],
    },
    {
      who: A,
      type: 'it-incident',
      daysAgo: 4,
      status: 'Open',
      data: { affected_system: 'Email', incident_description: 'Outlook cannot sync shared mailbox', incident_date: day(-4) },
      decisions: ['P'],
      extra: {
        it_helpdesk_ticket_number: 'TICKET-2026-101',
        it_helpdesk_assigned_to: 'Omar Haddad',
        employee_confirmation_status: 'Pending',
      },
    },
    {
      who: S,
      type: 'it-incident',
      daysAgo: 7,
      status: 'Resolved',
      data: { affected_system: 'CRM', incident_description: 'CRM reports time out', incident_date: day(-7) },
      decisions: ['P'],
      extra: {
        it_helpdesk_ticket_number: 'TICKET-2026-097',
        it_helpdesk_assigned_to: 'Lena Fischer',
        it_resolution_notes: 'Rebuilt report indexes',
        it_resolution_date: day(-2),
        employee_confirmation_status: 'Pending',
      },
    },
    {
      who: C,
      type: 'it-incident',
      daysAgo: 12,
      status: 'Closed',
      data: { affected_system: 'Laptop', incident_description: 'Battery drains in one hour', incident_date: day(-12) },
      decisions: ['A'],
      extra: {
        it_helpdesk_ticket_number: 'TICKET-2026-090',
        it_helpdesk_assigned_to: 'Omar Haddad',
        it_resolution_notes: 'Battery replaced',
        it_resolution_date: day(-5),
        employee_confirmation_status: 'Confirmed',
      },
    },
    {
      who: N,
      type: 'it-incident',
      daysAgo: 15,
      status: 'Open',
      data: { affected_system: 'Printer', incident_description: 'Floor 4 printer jams', incident_date: day(-15) },
      decisions: ['P'],
      extra: {
        it_helpdesk_ticket_number: 'TICKET-2026-085',
        it_helpdesk_assigned_to: 'Omar Haddad',
        it_resolution_notes: 'Cleared the tray',
        it_resolution_date: day(-10),
        employee_confirmation_status: 'Rejected',
      },
    },
    {
      who: R,
      type: 'it-incident',
      daysAgo: 60,
      status: 'Closed',
      data: { affected_system: 'Document management', incident_description: 'Cannot check in files', incident_date: day(-60) },
      decisions: ['A'],
      extra: {
        it_helpdesk_ticket_number: 'TICKET-2026-040',
        it_helpdesk_assigned_to: 'Lena Fischer',
        it_resolution_notes: 'Cleared stale locks',
        it_resolution_date: day(-55),
        employee_confirmation_status: 'Confirmed',
      },
    },
    // Password resets, in each it_support_status
    {
      who: N,
      type: 'password-reset',
      daysAgo: 1,
      data: { system_for_reset: 'ERP', reset_reason: 'Locked Account' },
      decisions: ['P'],
      extra: { it_support_status: 'Pending Manager' },
    },
    {
      who: A,
      type: 'password-reset',
      daysAgo: 3,
      data: { system_for_reset: 'VPN', reset_reason: 'Forgotten Password' },
      decisions: ['P'],
      extra: { it_support_status: 'Pending IT Action', line_manager_acknowledgement: true },
    },
    {
      who: M,
      type: 'password-reset',
      daysAgo: 2,
      data: { system_for_reset: 'Email', reset_reason: 'Forgotten Password' },
      decisions: ['P'],
      extra: {
        it_support_status: 'Password Set',
        line_manager_acknowledgement: true,
        has_new_password: true,
        new_password_enc: sealForSeed('EMP-1002', 'Mail#Reset-2716', keys),
        new_password_set_at: new Date(midnight - DAY).toISOString(),
        it_helpdesk_reset_by: 'Lena Fischer',
        it_helpdesk_reset_by_id: ids.get('lena.fischer@adminease.test'),
        it_helpdesk_date: day(-1),
      },
    },
    {
      who: R,
      type: 'password-reset',
      daysAgo: 40,
      status: 'Completed',
      data: { system_for_reset: 'CRM', reset_reason: 'Locked Account' },
      decisions: ['A'],
      // read long ago, so no longer stored (erased when its time limit passed)
      extra: {
        it_support_status: 'Completed',
        line_manager_acknowledgement: true,
        has_new_password: true,
        new_password_enc: null,
        new_password_set_at: new Date(midnight - 39 * DAY).toISOString(),
        password_seen_at: new Date(midnight - 38 * DAY).toISOString(),
        new_password_erased_at: new Date(midnight - 36 * DAY).toISOString(),
        new_password_erased_reason: 'time_limit',
        it_helpdesk_reset_by: 'Lena Fischer',
        it_helpdesk_reset_by_id: ids.get('lena.fischer@adminease.test'),
        it_helpdesk_date: day(-39),
      },
    },
    {
      who: S,
      type: 'password-reset',
      daysAgo: 30,
      status: 'Rejected',
      data: { system_for_reset: 'Other', reset_reason: 'Security Concern' },
      decisions: ['R'],
      reason: 'System retired; use SSO',
      extra: { it_support_status: 'Rejected', line_manager_acknowledgement: true },
    },
  ];

  let count = 0;
  for (const s of scenarios) {
    const def = formTypeDef(s.type)!;
    const emp = userByEmail.get(s.who)!;
    const empId = ids.get(s.who)!;
    const createdAt = new Date(now.getTime() - s.daysAgo * DAY + (count % 7) * 3_600_000);
    const decisions = s.decisions ?? def.chain.map(() => 'P');
    const rejected = decisions.includes('R');
    const allApproved = decisions.every((d) => d === 'A');
    const firstPending = decisions.findIndex((d) => d === 'P');
    const status = s.status ?? (rejected ? 'Rejected' : allApproved ? 'Approved' : 'Pending');
    const stored = await insertRequest(c, {
      formType: s.type,
      employeeId: empId,
      lineManagerId: emp.manager ? ids.get(emp.manager)! : null,
      hrContactId: emp.hr_contact ? ids.get(emp.hr_contact)! : null,
      data: { ...s.data, employee_name: nameOf(s.who), ...(s.extra ?? {}) },
      status,
      createdAt,
    });
    const ref = { pk: stored.pk, request_id: stored.request_id, form_type: s.type, employee_id: empId };
    await recordEvent(c, {
      request: ref,
      actorId: empId,
      eventType: 'submitted',
      field: 'status',
      newValue: initialStatusOf(s.type),
      at: createdAt,
    });
    for (let i = 0; i < def.chain.length; i += 1) {
      const d = decisions[i];
      if (d === 'P') continue;
      const stage = def.chain[i];
      const signer = stageSigner(stage, s.who);
      const decidedAt = new Date(createdAt.getTime() + (i + 1) * 20 * 3_600_000);
      const decision = d === 'A' ? (stage === 'it_helpdesk' ? 'Completed' : 'Approved') : 'Rejected';
      await c.query(
        `UPDATE approvals SET decision = $3, signer_id = $4, signer_name = $5, decided_at = $6, rejection_reason = $7 WHERE request_pk = $1 AND stage = $2`,
        [stored.pk, stage, decision, ids.get(signer), nameOf(signer), decidedAt, d === 'R' ? (s.reason ?? 'Not approved') : null],
      );
      await recordEvent(c, {
        request: ref,
        actorId: ids.get(signer)!,
        eventType: 'decision',
        stage,
        field: `${stage}_approval`,
        oldValue: 'Pending',
        newValue: decision,
        details: d === 'R' ? { rejection_reason: s.reason } : {},
        at: decidedAt,
      });
    }
    const currentStage = rejected || s.status === 'Closed' ? null : firstPending >= 0 ? def.chain[firstPending] : null;
    await c.query('UPDATE requests SET current_stage = $2 WHERE id = $1', [stored.pk, currentStage]);
    count += 1;
  }
  return count;
}
