// The actions cell of an approval row: View Details always; Approve and Reject while the caller can decide;
// otherwise the final decision 'by' its signer (or a 'View Only' badge for the manager's IT items).
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
    <div className="flex items-center justify-end gap-1.5 whitespace-nowrap">
      <Button variant="ghost" size="sm" onClick={() => onView(rec)} icon={<Eye className="h-4 w-4" aria-hidden="true" />} aria-label={`View details of ${rec.request_id}`} title="View Details">
        <span className="hidden @5xl:inline">View Details</span>
      </Button>
      {rec.view_only ? (
        <Badge tone="neutral">View Only</Badge>
      ) : rec.actionable ? (
        <>
          <Button size="sm" onClick={() => onApprove(rec)} loading={busy} aria-label={`Approve ${rec.request_id}`}>
            Approve
          </Button>
          <Button size="sm" variant="danger" onClick={() => onReject(rec)} disabled={busy} aria-label={`Reject ${rec.request_id}`}>
            Reject
          </Button>
        </>
      ) : (
        whenNotActionable ?? null
      )}
    </div>
  );
}
