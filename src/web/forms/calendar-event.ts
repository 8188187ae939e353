// Meeting-room bookings as calendar events: the calendar-template link of 'Add to Calendar' and an .ics file
// (offered in the form-details modal), and the two alert texts: missing date or time, and a date/time that fails
// to format.
import { businessMoment, isIsoDate } from '../../domain/business-time';
import type { FormRecord } from './types';

export const MISSING_DATE_OR_TIME = 'Unable to create calendar event: Missing date or time information';
export const FORMAT_ERROR = 'Error formatting date/time. Please check the booking details.';

export interface BookingEvent {
  title: string;
  location: string;
  details: string;
  /**
   * UTC times 'YYYYMMDDTHHMMSSZ' of the booking's wall-clock time on the organisation's calendar (its time zone),
   * so a calendar in another zone shows the meeting at the right moment.
   */
  start: string;
  end: string;
  uid: string;
}

export type EventResult = { ok: true; event: BookingEvent } | { ok: false; error: string };

const s = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

function stamp(date: string, time: string): string {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!d || !t) throw new Error('bad date or time');
  if (!isIsoDate(date)) throw new Error('no such day');
  return businessMoment(date, time)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The event of a meeting-room booking, or the spec's error text. */
export function bookingEvent(r: FormRecord): EventResult {
  const date = s(r.booking_date),
    start = s(r.start_time),
    end = s(r.end_time);
  if (!date || !start || !end) return { ok: false, error: MISSING_DATE_OR_TIME };
  try {
    const room = s(r.room_requested) || 'Meeting room';
    const people = s(r.participants_count);
    return {
      ok: true,
      event: {
        title: `Meeting: ${room}`,
        location: room,
        details: [`Booking ${r.request_id}`, people ? `${people} participants` : '', r.employee_name ? `Booked by ${r.employee_name}` : '']
          .filter(Boolean)
          .join('\n'),
        start: stamp(date, start),
        end: stamp(date, end),
        uid: `${r.request_id}@adminease`,
      },
    };
  } catch {
    return { ok: false, error: FORMAT_ERROR };
  }
}

/** The calendar-template link opened by 'Add to Calendar'. */
export function calendarTemplateUrl(e: BookingEvent): string {
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: e.title,
    dates: `${e.start}/${e.end}`,
    details: e.details,
    location: e.location,
  });
  return `https://calendar.google.com/calendar/render?${q.toString()}`;
}

const icsText = (v: string) => v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Folds content lines longer than 75 characters (RFC 5545 §3.1). */
function fold(line: string): string {
  const parts: string[] = [];
  for (let i = 0; i < line.length; i += i === 0 ? 75 : 74) parts.push(line.slice(i, i + (i === 0 ? 75 : 74)));
  return parts.join('\r\n ');
}

/** An RFC 5545 calendar with the booking as one event. */
export function icsFor(e: BookingEvent, now: Date = new Date()): string {
  const dtstamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//AdminEase//Meeting room bookings//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${dtstamp}`,
    `DTSTART:${e.start}`,
    `DTEND:${e.end}`,
    `SUMMARY:${icsText(e.title)}`,
    `LOCATION:${icsText(e.location)}`,
    `DESCRIPTION:${icsText(e.details)}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ]
    .map(fold)
    .join('\r\n');
}
