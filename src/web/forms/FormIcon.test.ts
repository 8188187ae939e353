// Every icon the registry names has its own drawing in FormIcon (no silent fall-back to the default icon).
import { describe, expect, it } from 'vitest';
import { FORM_TYPES } from '../../domain/forms';
import { FORM_ICON_NAMES } from './FormIcon';

describe('FormIcon', () => {
  it('resolves every icon name the registry uses', () => {
    for (const t of FORM_TYPES) expect(FORM_ICON_NAMES, `${t.formType}: ${t.icon}`).toContain(t.icon);
  });
});
