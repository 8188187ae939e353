// The updates the 'Form Approval Updates' dialog shows in this session: what check-changes found after login and
// what the live stream pushed since. Kept outside React so sign-in (before the dashboard mounts) can fill it.
import type { FormNotification } from '../../domain/notifications';

type Listener = () => void;

let updates: FormNotification[] = [];
const listeners = new Set<Listener>();

function emit() {
  for (const l of listeners) l();
}

export const updatesStore = {
  get: (): FormNotification[] => updates,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Adds notifications (kept newest first, no duplicates). */
  add(list: readonly FormNotification[]) {
    const known = new Set(updates.map((n) => n.id));
    const fresh = list.filter((n) => !known.has(n.id) && !n.read);
    if (fresh.length === 0) return;
    updates = [...fresh, ...updates].sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id);
    emit();
  },
  remove(id: number) {
    const next = updates.filter((n) => n.id !== id);
    if (next.length === updates.length) return;
    updates = next;
    emit();
  },
  clear() {
    if (updates.length === 0) return;
    updates = [];
    emit();
  },
};
