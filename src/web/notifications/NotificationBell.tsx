// The header's notifications bell: unread count badge, a dropdown of the
// unread notifications, 'No notifications' when empty; clicking one marks it read, removes it and opens its request
// (/requests/<id>).
import { Bell } from 'lucide-react';
import { changeLine } from '../../domain/notifications';
import { formatDateTime } from '../format';
import { useRequestRoute } from '../routing/hooks';
import { Spinner, cn } from '../ui';
import { useMarkRead, useNotifications } from './api';
import { changeLook } from './change-look';
import { HeaderPopover } from './HeaderPopover';
import { updatesStore } from './updates-store';

export function NotificationBell({ userId }: { userId: string | number }) {
  const query = useNotifications(userId);
  const markRead = useMarkRead(userId);
  const { open: openRequest } = useRequestRoute();
  const list = query.data?.notifications ?? [];
  const count = query.data?.unread_count ?? list.length;
  const badge = count > 99 ? '99+' : String(count);

  return (
    <HeaderPopover
      label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
      panelLabel="Notifications"
      testId="notifications-bell"
      panelClassName="sm:w-96"
      button={
        <>
          <Bell className="h-5 w-5" aria-hidden="true" />
          {count > 0 && (
            <span
              data-testid="notifications-badge"
              className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-red-600 px-1 text-[0.6875rem] leading-none font-semibold text-white ring-2 ring-white"
            >
              {badge}
            </span>
          )}
        </>
      }
    >
      {(close) => (
        <div>
          <div className="flex items-center justify-between border-b border-gray-200 px-4 py-3">
            <h2 className="text-sm font-semibold text-gray-900">Notifications</h2>
            {count > 0 && <span className="text-xs text-gray-500">{count} unread</span>}
          </div>
          {query.isPending ? (
            <div className="flex items-center gap-2 px-4 py-6 text-sm text-gray-600">
              <Spinner size="sm" /> Loading notifications…
            </div>
          ) : list.length === 0 ? (
            <p className="px-4 py-8 text-center text-sm text-gray-500">No notifications</p>
          ) : (
            <ul className="max-h-[min(28rem,70vh)] divide-y divide-gray-100 overflow-y-auto" data-testid="notifications-list">
              {list.map((n) => {
                const look = changeLook(n.change_type);
                return (
                  <li key={n.id}>
                    <button
                      type="button"
                      onClick={(e) => {
                        if (n.form_id) {
                          // A notification about a request opens it (its own URL, so Back returns here).
                          updatesStore.remove(n.id);
                          markRead.mutate(n.id);
                          close();
                          openRequest(n.form_id);
                          return;
                        }
                        // The clicked item goes away: keep focus in the panel (the next item, else the panel itself),
                        // so Tab and Escape still work there.
                        const item = e.currentTarget.closest('li');
                        const panel = e.currentTarget.closest<HTMLElement>('[role="region"]');
                        const next = (item?.nextElementSibling ?? item?.previousElementSibling)?.querySelector('button');
                        (next ?? panel)?.focus();
                        updatesStore.remove(n.id);
                        markRead.mutate(n.id);
                      }}
                      className="flex w-full gap-3 px-4 py-3 text-left hover:bg-gray-50 focus-visible:bg-gray-50"
                      title={n.form_id ? `Open ${n.form_id}` : 'Mark as read'}
                    >
                      <span className={cn('mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full', look.iconTile)}>
                        {look.icon}
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="block text-sm font-medium text-gray-900">{n.title}</span>
                        <span className="mt-0.5 block text-xs text-gray-600">{changeLine(n)}</span>
                        <time className="mt-0.5 block text-xs text-gray-500" dateTime={n.timestamp}>
                          {formatDateTime(n.timestamp)}
                        </time>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </HeaderPopover>
  );
}
