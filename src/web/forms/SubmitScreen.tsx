// The screen of a catalogue form that is submitted in place: the spec's facility access and password reset forms,
// and every other form type's form generated from the registry; the catalogue entry's facts (with who really
// decides, from the registry chain) above it, and the person's requests of that type beneath it.
import { Clock, ShieldCheck, X } from 'lucide-react';
import { catalogueEntry } from '../../domain/catalogue';
import { Button, Card, EmptyState } from '../ui';
import { FacilityAccessForm } from './FacilityAccessForm';
import { FormIcon } from './FormIcon';
import { GeneratedForm } from './GeneratedForm';
import { PasswordResetForm } from './PasswordResetForm';
import type { Submission } from './submissions';
import { YourFormsList } from './YourFormsList';

export interface SubmitScreenProps {
  formType: string;
  submissions: readonly Submission[];
  loading: boolean;
  onClose: () => void;
  onViewDetails: (s: Submission) => void;
}

export function SubmitScreen({ formType, submissions, loading, onClose, onViewDetails }: SubmitScreenProps) {
  const entry = catalogueEntry(formType);
  // A type an administrator disabled (or that no longer exists) cannot be submitted.
  if (!entry)
    return (
      <Card data-testid={`submit-${formType}`}>
        <EmptyState
          title="This form is not available"
          description="Your administrator has switched it off. Choose another form from the catalogue."
          action={
            <Button variant="secondary" onClick={onClose}>
              Back
            </Button>
          }
        />
      </Card>
    );
  return (
    <div className="space-y-6">
      <Card aria-labelledby="submit-heading" data-testid={`submit-${formType}`}>
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
          <div className="flex items-start gap-3">
            <span className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-lg ${entry.bgColor} ${entry.color}`}>
              <FormIcon name={entry.icon} />
            </span>
            <div>
              <h2 id="submit-heading" className="text-lg font-semibold text-gray-900">
                {entry.title}
              </h2>
              <p className="text-sm text-gray-600">{entry.description}</p>
              <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-500">
                <span className="font-mono">{entry.id}</span>
                <span className="inline-flex items-center gap-1">
                  <Clock className="h-3.5 w-3.5" aria-hidden="true" />
                  {entry.estimatedTime}
                </span>
                <span className="inline-flex items-center gap-1">
                  <ShieldCheck className="h-3.5 w-3.5" aria-hidden="true" />
                  Decided by: {entry.approvalChain.join(' → ')}
                </span>
              </p>
            </div>
          </div>
          <Button variant="secondary" size="sm" onClick={onClose} icon={<X className="h-4 w-4" aria-hidden="true" />}>
            Close
          </Button>
        </div>
        <div className="max-w-3xl px-4 py-5 sm:px-5">
          {formType === 'facility-access' ? (
            <FacilityAccessForm />
          ) : formType === 'password-reset' ? (
            <PasswordResetForm />
          ) : (
            <GeneratedForm formType={formType} onCancel={onClose} />
          )}
        </div>
      </Card>
      <YourFormsList submissions={submissions} loading={loading} formType={formType} onViewDetails={onViewDetails} />
    </div>
  );
}
