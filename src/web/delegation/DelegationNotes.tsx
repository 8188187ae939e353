// On a request's details: who is covering for the approver it waits on ('Priya is away until 3 Dec; Daniel is
// deciding in the meantime'), and which steps were decided for someone else (a delegate, or after an escalation).
import { UserRoundCheck } from 'lucide-react';

const STAGE_LABELS: Record<string, string> = {
  line_manager: 'Line Manager',
  hr: 'HR',
  finance: 'Finance',
  facilities_desk: 'Facilities Desk',
  facilities_manager: 'Facilities Manager',
};

interface Covering {
  text: string;
  message: string | null;
}

export function DelegationNotes({ record }: { record: Record<string, unknown> }) {
  const covering = record.covering as Covering | undefined;
  const decidedFor = Object.entries(STAGE_LABELS)
    .filter(([stage]) => record[`${stage}_decided_as`])
    .map(([stage, label]) => {
      const by = String(record[`${stage}_signature`] ?? 'someone');
      const text =
        record[`${stage}_decided_as`] === 'escalation'
          ? `${label}: decided by ${by} after escalation`
          : `${label}: decided by ${by} on behalf of ${String(record[`${stage}_on_behalf_of`] ?? 'the approver')}`;
      return text;
    });
  if (!covering && decidedFor.length === 0) return null;
  return (
    <section
      className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm"
      aria-label="Covering approvers"
      data-testid="delegation-notes"
    >
      {covering && (
        <p className="flex items-start gap-2 text-amber-900" data-testid="covering-notice">
          <UserRoundCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            {covering.text}
            {covering.message && <span className="block text-xs text-amber-800">“{covering.message}”</span>}
          </span>
        </p>
      )}
      {decidedFor.map((t) => (
        <p key={t} className="text-amber-900">
          {t}
        </p>
      ))}
    </section>
  );
}
