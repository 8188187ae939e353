// The signed-in user's preferences (GET/PUT /api/users/me/preferences) for the web app: a query hook, a save
// mutation, and the display preferences applied to the page (compact density, reduced motion). Other parts
// (chat sound, voice) read usePreferences() or listen for the PREFERENCES_EVENT window event.
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES, type Preferences, type PreferencesPatch } from '../../domain/preferences';
import { api } from '../api/client';

export const PREFERENCES_KEY = ['preferences', 'me'] as const;
/** Dispatched on window with the full preferences as detail whenever they load or change. */
export const PREFERENCES_EVENT = 'adminease:preferences';

export function usePreferences() {
  const q = useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: ({ signal }) => api.get<Preferences>('/api/users/me/preferences', { signal }),
    staleTime: 5 * 60_000,
  });
  return { ...q, preferences: q.data ?? DEFAULT_PREFERENCES };
}

export function useSavePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: PreferencesPatch) => api.put<Preferences>('/api/users/me/preferences', patch),
    onSuccess: (prefs) => qc.setQueryData(PREFERENCES_KEY, prefs),
  });
}

/** Applies the display preferences to <html> and announces the preferences to non-React listeners. */
export function useApplyPreferences(prefs: Preferences, loaded: boolean) {
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('ae-compact', prefs.display_density === 'compact');
    root.classList.toggle('ae-reduce-motion', prefs.reduce_motion);
    if (loaded) window.dispatchEvent(new CustomEvent(PREFERENCES_EVENT, { detail: prefs }));
    return () => {
      root.classList.remove('ae-compact', 'ae-reduce-motion');
    };
  }, [prefs, loaded]);
}
