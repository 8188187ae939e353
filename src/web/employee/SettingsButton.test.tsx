// @vitest-environment happy-dom
// The settings dialog against a mocked API: opened before the stored settings have loaded, it shows (and saves) the
// user's stored settings once they arrive, not the defaults; a change the user made first is kept.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_PREFERENCES } from '../../domain/preferences';
import { ToastProvider } from '../ui';
import { SettingsButton } from './SettingsButton';

const stored = { ...DEFAULT_PREFERENCES, sound_enabled: false, display_density: 'compact' as const };

/** GET preferences answers only when `release` is called; PUT echoes the body merged over the stored settings. */
function mockApi() {
  let release!: () => void;
  const loaded = new Promise<void>((r) => {
    release = r;
  });
  const puts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body));
        puts.push(body);
        return new Response(JSON.stringify({ ...stored, ...body }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      await loaded;
      return new Response(JSON.stringify(stored), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return { release, puts };
}

function renderButton() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <SettingsButton />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('settings dialog', () => {
  it('shows and saves the stored settings that load after it opened', async () => {
    const api = mockApi();
    renderButton();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    const sound = () => within(dialog).getByRole('switch', { name: /Speak assistant replies/ });
    expect(sound().getAttribute('aria-checked')).toBe('true'); // the defaults while loading
    api.release();
    await waitFor(() => expect(sound().getAttribute('aria-checked')).toBe('false'));
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Density').value).toBe('compact');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.puts).toHaveLength(1));
    expect(api.puts[0]).toMatchObject({ sound_enabled: false, display_density: 'compact' });
  });

  it('keeps a change the user made before the stored settings arrived, shows the other stored settings, and saves both', async () => {
    const api = mockApi();
    renderButton();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    let dialog = await screen.findByRole('dialog', { name: 'Settings' });
    const density = () => within(dialog).getByLabelText<HTMLSelectElement>('Density').value;
    const sound = () =>
      within(dialog)
        .getByRole('switch', { name: /Speak assistant replies/ })
        .getAttribute('aria-checked');
    // stored: compact and sound off; the user picks comfortable while the dialog still shows the defaults
    fireEvent.change(within(dialog).getByLabelText('Density'), { target: { value: 'comfortable' } });
    api.release();
    // the stored settings arrive: the untouched setting shows its stored value, the user's change stays
    await waitFor(() => expect(sound()).toBe('false'));
    expect(density()).toBe('comfortable');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.puts).toHaveLength(1));
    expect(api.puts[0]).toMatchObject({ sound_enabled: false, display_density: 'comfortable' });
    // the dialog closes once saved, and opened again it shows the saved change
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    dialog = await screen.findByRole('dialog', { name: 'Settings' });
    expect(density()).toBe('comfortable');
    expect(sound()).toBe('false');
  });
});
