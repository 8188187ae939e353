// Unit tests of the meeting-room calendar event: validation texts, template link and .ics content.
import { DEFAULT_BUSINESS_TIME_ZONE, setBusinessTimeZone } from '../../domain/business-time';
import { describe, expect, it } from 'vitest';
import { FORMAT_ERROR, MISSING_DATE_OR_TIME, bookingEvent, calendarTemplateUrl, icsFor } from './calendar-event';
import type { FormRecord } from './types';

const booking: FormRecord = {
  id: 7,
  request_id: 'MR-000007',
  form_type: 'meeting-room',
  status: 'Approved',
  created_at: '2027-01-01T00:00:00Z',
  employee_id: 'EMP-1',
  employee_user_id: 1,
  employee_name: 'Chloe Martin',
  room_requested: 'Board Room, East',
  booking_date: '2027-01-05',
  start_time: '10:00',
  end_time: '11:30',
  participants_count: 8,
};

describe('bookingEvent', () => {
  it('needs date, start and end time', () => {
    for (const k of ['booking_date', 'start_time', 'end_time']) {
      expect(bookingEvent({ ...booking, [k]: '' })).toEqual({ ok: false, error: MISSING_DATE_OR_TIME });
    }
  });
  it('reports a value it cannot format', () => {
    expect(bookingEvent({ ...booking, start_time: '10am' })).toEqual({ ok: false, error: FORMAT_ERROR });
    expect(bookingEvent({ ...booking, booking_date: '2027-02-30' })).toEqual({ ok: false, error: FORMAT_ERROR });
  });
  it("builds start and end as UTC moments of the booking's wall-clock time in the business zone (10:00 in India is 04:30 UTC)", () => {
    const r = bookingEvent(booking);
    expect(r.ok && r.event).toMatchObject({
      start: '20270105T043000Z',
      end: '20270105T060000Z',
      location: 'Board Room, East',
      uid: 'MR-000007@adminease',
    });
  });
  it('follows the configured business zone, daylight saving included', () => {
    setBusinessTimeZone('Europe/Berlin');
    try {
      const winter = bookingEvent(booking);
      expect(winter.ok && winter.event.start).toBe('20270105T090000Z');
      const summer = bookingEvent({ ...booking, booking_date: '2027-07-05' });
      expect(summer.ok && summer.event.start).toBe('20270705T080000Z');
    } finally {
      setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE);
    }
  });
});

describe('calendar outputs', () => {
  const r = bookingEvent(booking);
  if (!r.ok) throw new Error('expected an event');
  it('template link', () => {
    const url = new URL(calendarTemplateUrl(r.event));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('dates')).toBe('20270105T043000Z/20270105T060000Z');
    expect(url.searchParams.get('text')).toBe('Meeting: Board Room, East');
    expect(url.searchParams.get('location')).toBe('Board Room, East');
  });
  it('.ics with escaped text and CRLF lines', () => {
    const ics = icsFor(r.event, new Date('2027-01-01T08:00:00Z'));
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics).toContain('\r\nDTSTART:20270105T043000Z\r\n');
    expect(ics).toContain('\r\nDTEND:20270105T060000Z\r\n');
    expect(ics).toContain('\r\nDTSTAMP:20270101T080000Z\r\n');
    expect(ics).toContain('LOCATION:Board Room\\, East');
    expect(ics).toContain('DESCRIPTION:Booking MR-000007\\n8 participants\\nBooked by Chloe Martin');
    expect(ics.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    for (const line of ics.split('\r\n')) expect(line.length).toBeLessThanOrEqual(75);
  });
});
