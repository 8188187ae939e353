// Leave balance tiles of the details modal: Annual Left (allowance minus annual used, 1 decimal), Annual Used,
// Unpaid; 'N/A' when the balance cannot be loaded.
import { useLeaveBalance } from './api';

const one = (n: number) => (Math.round(n * 10) / 10).toFixed(1);

export function LeaveBalanceTiles({ userId }: { userId: string | number }) {
  const { data, isError, isLoading } = useLeaveBalance(userId);
  const total = data ? Number(data.annual_leave_total ?? 12) || 12 : 12;
  const value = (n: number | undefined) => (isError || !data || n === undefined ? (isLoading ? '…' : 'N/A') : one(n));
  const tiles = [
    { label: 'Annual Left', value: value(data ? total - Number(data.annual_leave_used ?? 0) : undefined) },
    { label: 'Annual Used', value: value(data ? Number(data.annual_leave_used ?? 0) : undefined) },
    { label: 'Unpaid', value: value(data ? Number(data.unpaid_leave_used ?? 0) : undefined) },
  ];
  return (
    <dl className="grid grid-cols-3 gap-2" aria-label="Leave balance" data-testid="leave-balance">
      {tiles.map((t) => (
        <div key={t.label} className="rounded-md border border-gray-200 bg-white px-3 py-2 text-center">
          <dt className="text-xs font-medium text-gray-600">{t.label}</dt>
          <dd className="text-lg font-semibold text-gray-900 tabular-nums">{t.value}</dd>
        </div>
      ))}
    </dl>
  );
}
