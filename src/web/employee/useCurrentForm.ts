// The employee dashboard's current-form value, kept in the URL (?form=leave-request) so Back and reload work.
// Other parts of the app (the chat assistant, notifications) switch screens with
// window.dispatchEvent(new CustomEvent(OPEN_FORM_EVENT, { detail: 'leave-request' })) (detail null: the dashboard).
import { useCallback, useEffect, useState } from 'react';

export const OPEN_FORM_EVENT = 'adminease:open-form';
const PARAM = 'form';

function read(): { form: string | null; extra: URLSearchParams } {
  const params = new URLSearchParams(window.location.search);
  return { form: params.get(PARAM), extra: params };
}

export function useCurrentForm(): [string | null, (value: string | null, options?: { new?: boolean }) => void, boolean] {
  const [state, setState] = useState(() => {
    const { form, extra } = read();
    return { form, startNew: extra.get('new') === '1' };
  });

  const set = useCallback((value: string | null, options: { new?: boolean } = {}) => {
    const url = new URL(window.location.href);
    if (value) url.searchParams.set(PARAM, value);
    else url.searchParams.delete(PARAM);
    if (options.new) url.searchParams.set('new', '1');
    else url.searchParams.delete('new');
    if (url.href !== window.location.href) window.history.pushState(null, '', url);
    setState({ form: value, startNew: Boolean(options.new) });
    window.scrollTo({ top: 0 });
  }, []);

  useEffect(() => {
    const onPop = () => {
      const { form, extra } = read();
      setState({ form, startNew: extra.get('new') === '1' });
    };
    const onOpen = (e: Event) => {
      const detail = (e as CustomEvent<string | null>).detail;
      set(typeof detail === 'string' && detail.trim() !== '' ? detail.trim() : null);
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener(OPEN_FORM_EVENT, onOpen);
    return () => {
      window.removeEventListener('popstate', onPop);
      window.removeEventListener(OPEN_FORM_EVENT, onOpen);
    };
  }, [set]);

  return [state.form, set, state.startNew];
}
