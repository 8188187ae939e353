// The dashboard's 'History' menu: a select that opens a history screen. Browsing its options with the arrow keys
// (which changes a closed select's value at once) only moves the choice; Enter opens it. A pick with the mouse or
// from the opened list opens it straight away. Its options are read from the registry at each render, so a type an
// administrator adds (or disables) shows (or leaves) once the web's registry has it (forms/form-types-sync.ts).
import { useRef, useState } from 'react';
import { Select } from '../ui';
import { historyMenu } from './screens';

/** Keys that change a closed select's value without the person meaning to open anything yet. */
const BROWSING_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

export function HistorySelect({ onOpen }: { onOpen: (value: string) => void }) {
  const [value, setValue] = useState('');
  const browsing = useRef(false);

  return (
    <Select
      label="History"
      value={value}
      data-testid="history-select"
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          if (value) onOpen(value);
          return;
        }
        // Letters also jump between options; they move the choice only.
        browsing.current = BROWSING_KEYS.has(e.key) || e.key.length === 1;
      }}
      onKeyUp={() => {
        browsing.current = false;
      }}
      onPointerDown={() => {
        browsing.current = false;
      }}
      onChange={(e) => {
        const next = e.target.value;
        setValue(next);
        if (!browsing.current && next) onOpen(next);
      }}
      wrapperClassName="min-w-0 sm:w-56"
    >
      <option value="">Open…</option>
      {historyMenu().map((h) => (
        <option key={h.value} value={h.value}>
          {h.label}
        </option>
      ))}
    </Select>
  );
}
