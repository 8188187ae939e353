// Meeting-room details: 'Add to Calendar' (a calendar-template link in a new tab) and an .ics download for approved
// bookings, with two alerts: missing date or time information, and a date/time that cannot be formatted.
import { CalendarPlus, Download } from 'lucide-react';
import { Button } from '../ui';
import { bookingEvent, calendarTemplateUrl, icsFor } from './calendar-event';
import type { FormRecord } from './types';

/** Meeting room: 'Add to Calendar' (calendar template link in a new tab) and an .ics download, for approved bookings. */
export function MeetingRoomCalendar({ record }: { record: FormRecord }) {
  if (String(record.status).toLowerCase() !== 'approved') return null;

  function withEvent(fn: (e: Extract<ReturnType<typeof bookingEvent>, { ok: true }>['event']) => void) {
    const r = bookingEvent(record);
    if (!r.ok) {
      window.alert(r.error);
      return;
    }
    fn(r.event);
  }

  return (
    <div className="flex flex-wrap gap-2">
      <Button
        size="sm"
        icon={<CalendarPlus className="h-4 w-4" aria-hidden="true" />}
        onClick={() => withEvent((e) => window.open(calendarTemplateUrl(e), '_blank', 'noopener,noreferrer'))}
      >
        Add to Calendar
      </Button>
      <Button
        size="sm"
        variant="secondary"
        icon={<Download className="h-4 w-4" aria-hidden="true" />}
        onClick={() =>
          withEvent((e) => {
            const url = URL.createObjectURL(new Blob([icsFor(e)], { type: 'text/calendar;charset=utf-8' }));
            const a = document.createElement('a');
            a.href = url;
            a.download = `${record.request_id}.ics`;
            document.body.appendChild(a);
            a.click();
            a.remove();
            setTimeout(() => URL.revokeObjectURL(url), 1000);
          })
        }
      >
        Download .ics
      </Button>
    </div>
  );
}
