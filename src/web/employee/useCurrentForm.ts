// The employee dashboard's current-form value, kept in the URL (/forms/leave-request; see domain/web-routes.ts) so
// Back, reload and shared links work. Other parts of the app (the chat assistant, notifications) switch screens with
// window.dispatchEvent(new CustomEvent(OPEN_FORM_EVENT, { detail: 'leave-request' })) (detail null: the dashboard).
import { useEffect, useRef } from 'react';
import { useOpenForm, useWebRoute } from '../routing/hooks';

export const OPEN_FORM_EVENT = 'adminease:open-form';

export function useCurrentForm(): [string | null, (value: string | null, options?: { new?: boolean }) => void, boolean] {
  const { form, startNew } = useWebRoute();
  const open = useOpenForm();
  // The listener is added once; it calls the latest navigation (which knows the current address).
  const latest = useRef(open);
  useEffect(() => {
    latest.current = open;
  }, [open]);

  useEffect(() => {
    const onOpen = (e: Event) => {
      const detail = (e as CustomEvent<string | null>).detail;
      latest.current(typeof detail === 'string' && detail.trim() !== '' ? detail.trim() : null);
    };
    window.addEventListener(OPEN_FORM_EVENT, onOpen);
    return () => window.removeEventListener(OPEN_FORM_EVENT, onOpen);
  }, []);

  return [form, open, startNew];
}
