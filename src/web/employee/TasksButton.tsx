// The header's tasks button: the signed-in employee's open requests (not yet finally decided), newest first;
// choosing one opens its details.
import { ListTodo } from 'lucide-react';
import { displayStatus, employeeNextStage } from '../../domain/status';
import { formatDate } from '../format';
import { FormIcon } from '../forms/FormIcon';
import type { Submission } from '../forms/submissions';
import { Spinner, StatusBadge } from '../ui';
import { HeaderPopover } from './HeaderPopover';

export interface TasksButtonProps {
  tasks: readonly Submission[];
  loading?: boolean;
  onSelect: (task: Submission) => void;
}

const SHOWN = 8;

export function TasksButton({ tasks, loading, onSelect }: TasksButtonProps) {
  const n = tasks.length;
  return (
    <HeaderPopover
      label={`Tasks: ${n} open request${n === 1 ? '' : 's'}`}
      icon={<ListTodo className="h-5 w-5" aria-hidden="true" />}
      badge={n}
    >
      {(close) => (
        <div>
          <div className="border-b border-gray-200 px-4 py-2.5">
            <p className="text-sm font-semibold text-gray-900">Your open requests</p>
            <p className="text-xs text-gray-500">Requests still waiting for a decision</p>
          </div>
          {loading ? (
            <div className="flex justify-center p-6">
              <Spinner label="Loading your requests" />
            </div>
          ) : n === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-gray-500">No open requests</p>
          ) : (
            <ul className="max-h-80 divide-y divide-gray-100 overflow-y-auto">
              {tasks.slice(0, SHOWN).map((t) => (
                <li key={t.id}>
                  <button
                    type="button"
                    onClick={() => {
                      close();
                      onSelect(t);
                    }}
                    className="flex w-full items-start gap-3 px-4 py-2.5 text-left hover:bg-gray-50"
                  >
                    <span className="mt-0.5 text-indigo-600">
                      <FormIcon name={t.icon} className="h-4 w-4" />
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="flex items-center justify-between gap-2">
                        <span className="truncate text-sm font-medium text-gray-900">{t.title}</span>
                        <StatusBadge status={displayStatus(t.status)} />
                      </span>
                      <span className="block truncate text-xs text-gray-500">
                        {t.request_id} · {formatDate(t.created_at)} · Next: {employeeNextStage(t)}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {n > SHOWN && (
            <p className="border-t border-gray-200 px-4 py-2 text-xs text-gray-500">and {n - SHOWN} more in 'Your Forms & Requests'</p>
          )}
        </div>
      )}
    </HeaderPopover>
  );
}
