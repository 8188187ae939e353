// The 'Form Approval Updates' dialog: open while there are updates (found after login or
// pushed live), grouped under '{form type label} Updates', each with title, 'View request' (its /requests/<id>),
// 'Mark as read', the change line and a local timestamp; footer '{n} approval update(s)' and Close; closing
// animates for 300 ms before it is reported. While a request's details are open by URL, the dialog waits.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { changeLine, formTypeLabel, type FormNotification } from '../../domain/notifications';
import { formatDateTime } from '../format';
import { useRequestRoute, useWebRoute } from '../routing/hooks';
import { Button, Dialog, cn } from '../ui';
import { useMarkRead } from './api';
import { changeLook } from './change-look';
import { updatesStore } from './updates-store';

/** The spec's notification dialog close delay. */
export const CLOSE_ANIMATION_MS = 300;

export function groupByFormType(list: readonly FormNotification[]): Array<{ formType: string; label: string; items: FormNotification[] }> {
  const groups = new Map<string, FormNotification[]>();
  for (const n of list) {
    const key = n.form_type ?? 'other';
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  return [...groups.entries()].map(([formType, items]) => ({
    formType,
    label: formTypeLabel(formType === 'other' ? null : formType),
    items,
  }));
}

export function updatesCountText(n: number): string {
  return `${n} approval update${n === 1 ? '' : 's'}`;
}

export interface ApprovalUpdatesDialogProps {
  userId: string | number;
  /** Reported after the closing animation. */
  onClosed?: () => void;
}

export function ApprovalUpdatesDialog({ userId, onClosed }: ApprovalUpdatesDialogProps) {
  const updates = useSyncExternalStore(updatesStore.subscribe, updatesStore.get, updatesStore.get);
  const markRead = useMarkRead(userId);
  const { open: openRequest } = useRequestRoute();
  const [closing, setClosing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const close = useCallback(() => {
    if (timer.current) return;
    setClosing(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setClosing(false);
      updatesStore.clear();
      onClosed?.();
    }, CLOSE_ANIMATION_MS);
  }, [onClosed]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  // A request opened by its URL (a link from an e-mail or a notification) is what the person came for: the updates
  // wait until its details are closed.
  const { requestId } = useWebRoute();
  const open = updates.length > 0 && requestId === null;
  const groups = groupByFormType(updates);

  function onMarkRead(n: FormNotification) {
    markRead.mutate(n.id);
    if (updates.length === 1) close();
    else updatesStore.remove(n.id);
  }

  /** Opens the request of an update: marks it read and closes the dialog, so the details are what is seen. */
  function onOpen(n: FormNotification) {
    if (!n.form_id) return;
    markRead.mutate(n.id);
    close();
    openRequest(n.form_id);
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Form Approval Updates"
      size="lg"
      className={cn(
        'transition-[opacity,transform] duration-300 ease-in',
        closing && 'pointer-events-none translate-y-2 scale-95 opacity-0',
      )}
      footer={
        <div className="flex w-full items-center justify-between gap-3">
          <span className="text-sm text-gray-600" data-testid="updates-count">
            {updatesCountText(updates.length)}
          </span>
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </div>
      }
    >
      <div className="space-y-5" data-testid="approval-updates">
        {groups.map((g) => (
          <section key={g.formType} aria-label={`${g.label} Updates`}>
            <h3 className="mb-2 text-sm font-semibold text-gray-800">{g.label} Updates</h3>
            <ul className="space-y-2">
              {g.items.map((n) => {
                const look = changeLook(n.change_type);
                return (
                  <li key={n.id} className={cn('flex gap-3 rounded-lg border p-3', look.card)} data-change-type={n.change_type}>
                    <span
                      className={cn('mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full', look.iconTile)}
                      title={look.label}
                    >
                      {look.icon}
                    </span>
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
                        <p className="min-w-0 text-sm font-medium text-gray-900">{n.title}</p>
                        <span className="flex shrink-0 gap-3">
                          {n.form_id && (
                            <button
                              type="button"
                              onClick={() => onOpen(n)}
                              className="rounded text-xs font-medium text-indigo-700 hover:text-indigo-900 hover:underline"
                            >
                              View request
                            </button>
                          )}
                          <button
                            type="button"
                            onClick={() => onMarkRead(n)}
                            className="rounded text-xs font-medium text-indigo-700 hover:text-indigo-900 hover:underline"
                          >
                            Mark as read
                          </button>
                        </span>
                      </div>
                      <p className="mt-1 text-sm text-gray-700">{changeLine(n)}</p>
                      <time className="mt-1 block text-xs text-gray-500" dateTime={n.timestamp}>
                        {formatDateTime(n.timestamp)}
                      </time>
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
