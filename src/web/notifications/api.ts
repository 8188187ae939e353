// The form-state calls of the web app: unread notifications, mark-read, check-changes after login and the
// snapshot at logout. Failures give empty or false results rather than errors.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormNotification } from '../../domain/notifications';
import { api } from '../api/client';

export type { FormNotification };

export interface NotificationsAnswer {
  success: boolean;
  unread_count: number;
  notifications: FormNotification[];
}

export interface CheckChangesAnswer {
  success: boolean;
  has_changes: boolean;
  count: number;
  snapshot_at: string | null;
  notifications: FormNotification[];
}

/** Query key of the bell's list; live pushes invalidate it. */
export const notificationsKey = (userId: string | number) => ['notifications', String(userId)] as const;

export function useNotifications(userId: string | number) {
  return useQuery({
    queryKey: notificationsKey(userId),
    queryFn: async () => {
      try {
        return await api.get<NotificationsAnswer>(`/api/form-state/notifications/${encodeURIComponent(String(userId))}`);
      } catch (error) {
        console.error('Failed to load notifications', error);
        return { success: false, unread_count: 0, notifications: [] } satisfies NotificationsAnswer;
      }
    },
    staleTime: 60_000,
  });
}

/** Marks a notification read and removes it from the cached list at once (put back if the call fails). */
export function useMarkRead(userId: string | number) {
  const queryClient = useQueryClient();
  const key = notificationsKey(userId);
  return useMutation({
    mutationFn: (id: number) => api.post<{ success: boolean }>(`/api/form-state/mark-read/${id}`, {}),
    onMutate: async (id: number) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<NotificationsAnswer>(key);
      if (previous) {
        const left = previous.notifications.filter((n) => n.id !== id);
        queryClient.setQueryData<NotificationsAnswer>(key, {
          ...previous,
          notifications: left,
          unread_count: Math.max(0, previous.unread_count - (left.length < previous.notifications.length ? 1 : 0)),
        });
      }
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/** POST /api/form-state/check-changes: the notifications since the logout snapshot (empty on failure). */
export async function checkChanges(userId: string | number): Promise<FormNotification[]> {
  try {
    const answer = await api.post<CheckChangesAnswer>('/api/form-state/check-changes', { user_id: userId });
    return answer?.notifications ?? [];
  } catch (error) {
    console.error('Failed to check form changes', error);
    return [];
  }
}
