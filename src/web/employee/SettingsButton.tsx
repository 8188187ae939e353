// The header's settings button: sound, voice, display and e-mail preferences in a dialog, saved per user
// (PUT /api/users/me/preferences).
import { useEffect, useRef, useState } from 'react';
import { Settings } from 'lucide-react';
import { DISPLAY_DENSITIES, type Preferences, VOICE_LANGUAGES, VOICE_NAMES } from '../../domain/preferences';
import { Button, Dialog, ErrorBanner, Select, useToast } from '../ui';
import { usePreferences, useSavePreferences } from './preferences';

const VOICE_LABELS: Record<string, string> = {
  'en-US-Chirp3-HD-Charon': 'Charon (default, calm)',
  'en-US-Chirp3-HD-Aoede': 'Aoede (bright)',
  'en-US-Chirp3-HD-Puck': 'Puck (lively)',
  'en-US-Chirp3-HD-Kore': 'Kore (warm)',
};

/** The e-mail switches (docs/email.md): which e-mails the person gets. */
const EMAIL_TOGGLES: ReadonlyArray<{ key: 'email_decisions' | 'email_waiting' | 'email_digest'; label: string; hint: string }> = [
  {
    key: 'email_decisions',
    label: 'Decisions on my requests',
    hint: 'An e-mail when your request is approved or rejected, with the reason.',
  },
  {
    key: 'email_waiting',
    label: 'Items waiting for me',
    hint: 'An e-mail when a request waits for your decision, with Approve and Reject buttons.',
  },
  {
    key: 'email_digest',
    label: 'Daily digest instead of each item',
    hint: 'One e-mail a day with everything above, instead of one e-mail per item.',
  },
];

function Toggle({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <label htmlFor={id} className="text-sm">
        <span className="font-medium text-gray-800">{label}</span>
        {hint && <span className="block text-xs text-gray-500">{hint}</span>}
      </label>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        onClick={() => onChange(!checked)}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ${checked ? 'bg-indigo-600' : 'bg-gray-300'}`}
      >
        <span
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5' : 'translate-x-0.5'}`}
        />
      </button>
    </div>
  );
}

export function SettingsButton() {
  const [open, setOpen] = useState(false);
  const { preferences, isError, isSuccess } = usePreferences();
  const save = useSavePreferences();
  const toast = useToast();
  const [draft, setDraft] = useState<Preferences>(preferences);
  /** The settings the user changed in the open dialog. */
  const edited = useRef(new Set<keyof Preferences>());

  useEffect(() => {
    if (open) {
      setDraft(preferences);
      edited.current = new Set();
      save.reset();
    }
    // Reset the draft each time the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // Opened before the stored settings had loaded: they replace the defaults shown, except the settings the user
  // already changed, so the dialog never shows, nor saves back, defaults instead of the user's other settings.
  useEffect(() => {
    if (open && isSuccess) {
      setDraft((d) => {
        const next = { ...preferences };
        for (const k of edited.current) (next as Record<string, unknown>)[k] = d[k];
        return next;
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isSuccess]);

  const set = <K extends keyof Preferences>(k: K, v: Preferences[K]) => {
    edited.current.add(k);
    setDraft((d) => ({ ...d, [k]: v }));
  };

  async function onSave() {
    try {
      await save.mutateAsync(draft);
      toast.success('Settings saved');
      setOpen(false);
    } catch {
      // The error banner shows the failure; the dialog stays open.
    }
  }

  return (
    <>
      <button
        type="button"
        aria-label="Settings"
        title="Settings"
        onClick={() => setOpen(true)}
        className="rounded-md p-2 text-gray-600 hover:bg-gray-100 hover:text-gray-900"
      >
        <Settings className="h-5 w-5" aria-hidden="true" />
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Settings"
        description="Sound, voice, display and e-mail preferences are saved to your account."
        closeOnBackdrop={!save.isPending}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button onClick={onSave} loading={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save settings'}
            </Button>
          </>
        }
      >
        <div className="space-y-6">
          {isError && <ErrorBanner>Your saved settings could not be loaded; the defaults are shown.</ErrorBanner>}
          {save.isError && <ErrorBanner title="Settings not saved">{save.error.message}</ErrorBanner>}
          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-semibold text-gray-900">Sound</legend>
            <Toggle
              id="pref-sound"
              label="Speak assistant replies"
              hint="The Chief Smile Officer reads its answers aloud."
              checked={draft.sound_enabled}
              onChange={(v) => set('sound_enabled', v)}
            />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-semibold text-gray-900">Voice</legend>
            <Select label="Voice" value={draft.voice_name} onChange={(e) => set('voice_name', e.target.value)}>
              {[...new Set([...VOICE_NAMES, draft.voice_name])].map((v) => (
                <option key={v} value={v}>
                  {VOICE_LABELS[v] ?? v}
                </option>
              ))}
            </Select>
            <div className="space-y-1">
              <label htmlFor="pref-rate" className="block text-sm font-medium text-gray-700">
                Speaking speed <span className="font-normal text-gray-500">({draft.speech_rate.toFixed(2)}x)</span>
              </label>
              <input
                id="pref-rate"
                type="range"
                min={0.5}
                max={2}
                step={0.25}
                value={draft.speech_rate}
                onChange={(e) => set('speech_rate', Number(e.target.value))}
                className="w-full accent-indigo-600"
              />
            </div>
            <Select
              label="Voice input language"
              value={draft.voice_input_language}
              onChange={(e) => set('voice_input_language', e.target.value as Preferences['voice_input_language'])}
            >
              {VOICE_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </Select>
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-semibold text-gray-900">Display</legend>
            <Select
              label="Density"
              value={draft.display_density}
              onChange={(e) => set('display_density', e.target.value as Preferences['display_density'])}
            >
              {DISPLAY_DENSITIES.map((d) => (
                <option key={d} value={d}>
                  {d === 'compact' ? 'Compact' : 'Comfortable'}
                </option>
              ))}
            </Select>
            <Select
              label="Forms catalogue opens as"
              value={draft.catalogue_view}
              onChange={(e) => set('catalogue_view', e.target.value as Preferences['catalogue_view'])}
            >
              <option value="grid">Grid</option>
              <option value="list">List</option>
            </Select>
            <Toggle
              id="pref-motion"
              label="Reduce motion"
              hint="Fewer animations."
              checked={draft.reduce_motion}
              onChange={(v) => set('reduce_motion', v)}
            />
          </fieldset>
          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-semibold text-gray-900">E-mail</legend>
            {EMAIL_TOGGLES.map((t) => (
              <Toggle
                key={t.key}
                id={`pref-${t.key}`}
                label={t.label}
                hint={t.hint}
                checked={draft[t.key]}
                onChange={(v) => set(t.key, v)}
              />
            ))}
          </fieldset>
        </div>
      </Dialog>
    </>
  );
}
