// The actions cell of an approval row: View Details always; Approve and Reject while the caller can decide;
// otherwise the final decision 'by' its signer (or a 'View Only' badge for the manager's IT items). From the 6xl
// table width on the whole line stays on one line; in a narrower table the buttons wrap rather than widen the table.
import { Eye } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge, Button } from '../ui';
import type { QueueRecord } from './api';

export interface RowActionsProps {
  rec: QueueRecord;
  busy: boolean;
  onView: (rec: QueueRecord) => void;
  onApprove: (rec: QueueRecord) => void;
  onReject: (rec: QueueRecord) => void;
  /** Shown instead of Approve/Reject when the row is not decidable (e.g. the final label). */
  whenNotActionable?: ReactNode;
}

export function RowActions({ rec, busy, onView, onApprove, onReject, whenNotActionable }: RowActionsProps) {
  return (
    // One line in a wide table; in a narrower one View Details may wrap above Approve and Reject (which stay side by
    // side), so the table never grows past its box (the whole line from the 6xl width); on a card the line wraps (styles.css).
    <div className="flex flex-wrap items-center justify-end gap-1.5 @6xl:flex-nowrap">
      <Button
        variant="ghost"
        size="sm"
        onClick={() => onView(rec)}
        icon={<Eye className="h-4 w-4" aria-hidden="true" />}
        aria-label={`View details of ${rec.request_id}`}
        title="View Details"
      >
        <span className="hidden @5xl:inline">View Details</span>
      </Button>
      {rec.view_only ? (
        <Badge tone="neutral">View Only</Badge>
      ) : rec.actionable ? (
        // Approve and Reject side by side where the table has room (6xl on); stacked in a tight table rather than
        // pushing the table past its box.
        <span className="inline-flex flex-wrap justify-end gap-1.5 @6xl:flex-nowrap">
          <Button size="sm" onClick={() => onApprove(rec)} loading={busy} aria-label={`Approve ${rec.request_id}`}>
            Approve
          </Button>
          <Button size="sm" variant="danger" onClick={() => onReject(rec)} disabled={busy} aria-label={`Reject ${rec.request_id}`}>
            Reject
          </Button>
        </span>
      ) : (
        (whenNotActionable ?? null)
      )}
    </div>
  );
}
