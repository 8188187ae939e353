// Purchase Requisition Form (FIN-PR-08): item, purpose, quantity (whole number >= 1), unit cost and estimated total
// (>= 0, 2 decimals). The estimated total is computed as quantity x unit cost on each change and stays editable.
// On success the caller closes the form and the list reloads (employee-side §4, §5, §8).
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useCurrentUser } from '../auth/AuthProvider';
import { Button, Input, Textarea } from '../ui';
import { useSubmitForm } from './api';
import { FormStatus, type SubmitState } from './FormStatus';
import { identityPayload } from './identity';

export const PR_SUCCESS = 'Purchase requisition submitted successfully!';
export const PR_NETWORK_ERROR = 'Failed to submit purchase requisition. Please try again.';

type Values = { item_description: string; purpose_of_purchase: string; quantity: string; unit_cost: string; estimated_total: string };
const EMPTY: Values = { item_description: '', purpose_of_purchase: '', quantity: '', unit_cost: '', estimated_total: '' };

const twoDecimals = (s: string) => /^\d+(\.\d{1,2})?$/.test(s.trim());

/** quantity x unit cost to 2 decimals, or '' while either is not a number. */
export function computeEstimatedTotal(quantity: string, unitCost: string): string {
  const q = Number(quantity), u = Number(unitCost);
  if (quantity.trim() === '' || unitCost.trim() === '' || !Number.isFinite(q) || !Number.isFinite(u)) return '';
  return (Math.round(q * u * 100) / 100).toFixed(2);
}

/** Field errors of the form, with the server's wording. */
export function validateRequisition(v: Values): Partial<Record<keyof Values, string>> {
  const e: Partial<Record<keyof Values, string>> = {};
  if (!v.item_description.trim()) e.item_description = 'Item description is required';
  if (!v.purpose_of_purchase.trim()) e.purpose_of_purchase = 'Purpose of purchase is required';
  if (v.quantity.trim() === '') e.quantity = 'Quantity is required';
  else if (!/^\d+$/.test(v.quantity.trim())) e.quantity = 'Quantity must be a whole number';
  else if (Number(v.quantity) < 1) e.quantity = 'Quantity must be at least 1';
  if (v.unit_cost.trim() === '') e.unit_cost = 'Unit cost is required';
  else if (Number(v.unit_cost) < 0) e.unit_cost = 'Unit cost must be 0 or more';
  else if (!twoDecimals(v.unit_cost)) e.unit_cost = 'Unit cost must be a number with at most 2 decimals';
  if (v.estimated_total.trim() === '') e.estimated_total = 'Estimated total is required';
  else if (Number(v.estimated_total) < 0) e.estimated_total = 'Estimated total must be 0 or more';
  else if (!twoDecimals(v.estimated_total)) e.estimated_total = 'Estimated total must be a number with at most 2 decimals';
  return e;
}

export function PurchaseRequisitionForm({ onSuccess, onCancel }: { onSuccess: (message: string, requestId: string) => void; onCancel?: () => void }) {
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
        estimated_total: parseFloat(values.estimated_total),
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
      <Textarea label="Item description" required rows={2} maxLength={1000} value={values.item_description} error={errors.item_description}
        onChange={(e) => change('item_description', e.target.value)} disabled={submitting} placeholder="What would you like to purchase?" />
      <Textarea label="Purpose of purchase" required rows={3} maxLength={1000} value={values.purpose_of_purchase} error={errors.purpose_of_purchase}
        onChange={(e) => change('purpose_of_purchase', e.target.value)} disabled={submitting} placeholder="What is the purchase for?" />
      <div className="grid gap-4 sm:grid-cols-3">
        <Input label="Quantity" required type="number" inputMode="numeric" min={1} step={1} value={values.quantity} error={errors.quantity}
          onChange={(e) => change('quantity', e.target.value)} disabled={submitting} />
        <Input label="Unit cost (USD)" required type="number" inputMode="decimal" min={0} step={0.01} value={values.unit_cost} error={errors.unit_cost}
          onChange={(e) => change('unit_cost', e.target.value)} disabled={submitting} />
        <Input label="Estimated total (USD)" required type="number" inputMode="decimal" min={0} step={0.01} value={values.estimated_total}
          error={errors.estimated_total} hint="Quantity x unit cost; you can adjust it" onChange={(e) => change('estimated_total', e.target.value)} disabled={submitting} />
      </div>
      <FormStatus state={state} />
      <div className="flex justify-end gap-2">
        {onCancel && <Button variant="secondary" onClick={onCancel} disabled={submitting}>Cancel</Button>}
        <Button type="submit" loading={submitting}>{submitting ? 'Submitting...' : 'Submit Requisition'}</Button>
      </div>
    </form>
  );
}
