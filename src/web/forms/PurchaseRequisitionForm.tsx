// Purchase Requisition Form (FIN-PR-08): item, purpose, quantity, unit cost and estimated total, checked with the
// server's own schema (the registry's formSchema), so the web and the server agree on every rule and message.
// The estimated total is computed as quantity x unit cost on each change and stays editable.
// On success the caller closes the form and the list reloads.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useCurrentUser } from '../auth/AuthProvider';
import { Button, Input, Textarea } from '../ui';
import { useSubmitForm } from './api';
import { FormStatus, type SubmitState } from './FormStatus';
import { fieldOfMessage } from './generated';
import { identityPayload } from './identity';
import { formSchema, formTypeDef, requisitionTotal } from '../../domain/forms';

export const PR_SUCCESS = 'Purchase requisition submitted successfully!';
export const PR_NETWORK_ERROR = 'Failed to submit purchase requisition. Please try again.';

type Values = { item_description: string; purpose_of_purchase: string; quantity: string; unit_cost: string; estimated_total: string };
const EMPTY: Values = { item_description: '', purpose_of_purchase: '', quantity: '', unit_cost: '', estimated_total: '' };

/** quantity x unit cost to 2 decimals, or '' while either is not a number. */
export function computeEstimatedTotal(quantity: string, unitCost: string): string {
  const q = Number(quantity),
    u = Number(unitCost);
  if (quantity.trim() === '' || unitCost.trim() === '' || !Number.isFinite(q) || !Number.isFinite(u)) return '';
  return requisitionTotal(q, u).toFixed(2);
}

/**
 * Field errors of the form: the server's own schema (formSchema('purchase-requisition')), so the messages and
 * rules are the server's (a blank estimated total is computed by the server; a total must equal quantity x unit cost).
 */
export function validateRequisition(v: Values): Partial<Record<keyof Values, string>> {
  const r = formSchema('purchase-requisition').safeParse(v);
  if (r.success) return {};
  const def = formTypeDef('purchase-requisition')!;
  const e: Partial<Record<keyof Values, string>> = {};
  for (const issue of r.error.issues) {
    const key = (issue.path.length > 0 ? String(issue.path[0]) : fieldOfMessage(def, issue.message)) as keyof Values | null;
    if (key && key in EMPTY && !e[key]) e[key] = issue.message;
  }
  return e;
}

export function PurchaseRequisitionForm({
  onSuccess,
  onCancel,
}: {
  onSuccess: (message: string, requestId: string) => void;
  onCancel?: () => void;
}) {
  const user = useCurrentUser();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [state, setState] = useState<SubmitState>({ kind: 'idle' });
  const submit = useSubmitForm(() => '/api/purchase-requisition/submit');
  const submitting = state.kind === 'submitting';

  function change(k: keyof Values, value: string) {
    setValues((v) => {
      const next = { ...v, [k]: value };
      if (k === 'quantity' || k === 'unit_cost') {
        const total = computeEstimatedTotal(next.quantity, next.unit_cost);
        if (total !== '') next.estimated_total = total;
      }
      return next;
    });
    setErrors((x) => ({ ...x, [k]: undefined, ...(k === 'quantity' || k === 'unit_cost' ? { estimated_total: undefined } : {}) }));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    const found = validateRequisition(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setState({ kind: 'submitting' });
    try {
      const r = await submit.mutateAsync({
        ...identityPayload(user, { department: 'Unknown', manager: 'Manager' }),
        item_description: values.item_description.trim(),
        quantity: parseInt(values.quantity, 10),
        unit_cost: parseFloat(values.unit_cost),
        // Blank: the server computes quantity x unit cost.
        ...(values.estimated_total.trim() === '' ? {} : { estimated_total: parseFloat(values.estimated_total) }),
        purpose_of_purchase: values.purpose_of_purchase.trim(),
      });
      setState({ kind: 'idle' });
      setValues(EMPTY);
      onSuccess(r.message || PR_SUCCESS, r.request_id);
    } catch (err) {
      setState({ kind: 'error', message: err instanceof ApiError ? `Error: ${err.message}` : PR_NETWORK_ERROR });
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Purchase Requisition Form" noValidate>
      <Textarea
        label="Item description"
        required
        rows={2}
        maxLength={1000}
        value={values.item_description}
        error={errors.item_description}
        onChange={(e) => change('item_description', e.target.value)}
        disabled={submitting}
        placeholder="What would you like to purchase?"
      />
      <Textarea
        label="Purpose of purchase"
        required
        rows={3}
        maxLength={1000}
        value={values.purpose_of_purchase}
        error={errors.purpose_of_purchase}
        onChange={(e) => change('purpose_of_purchase', e.target.value)}
        disabled={submitting}
        placeholder="What is the purchase for?"
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Input
          label="Quantity"
          required
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={values.quantity}
          error={errors.quantity}
          onChange={(e) => change('quantity', e.target.value)}
          disabled={submitting}
        />
        <Input
          label="Unit cost (USD)"
          required
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={values.unit_cost}
          error={errors.unit_cost}
          onChange={(e) => change('unit_cost', e.target.value)}
          disabled={submitting}
        />
        <Input
          label="Estimated total (USD)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          value={values.estimated_total}
          error={errors.estimated_total}
          hint="Quantity x unit cost, to the cent; left blank, it is computed for you"
          onChange={(e) => change('estimated_total', e.target.value)}
          disabled={submitting}
        />
      </div>
      <FormStatus state={state} />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={submitting}>
          {submitting ? 'Submitting...' : 'Submit Requisition'}
        </Button>
      </div>
    </form>
  );
}
