// The new password, typed twice, with the strength rules shown while typing: the one field block of every form that
// chooses a password (changing one's own, an invitation link, the first administrator's set-up). The server enforces
// the same rules (src/domain/password-rules.ts).
import { useId, useState } from 'react';
import { passwordProblems, type PasswordOwner } from '../../domain/password-rules';
import { Input } from '../ui';
import { PasswordChecklist } from './PasswordRules';

export interface NewPasswordValue {
  password: string;
  again: string;
  onPassword: (value: string) => void;
  onAgain: (value: string) => void;
}

/** The state of the two fields, spread into <NewPasswordFields {...value} />. */
export function useNewPassword(): NewPasswordValue {
  const [password, onPassword] = useState('');
  const [again, onAgain] = useState('');
  return { password, again, onPassword, onAgain };
}

export interface NewPasswordFieldsProps extends NewPasswordValue {
  owner: PasswordOwner;
  disabled?: boolean;
  /** The confirmation field's label ('Confirm new password' where a current password is also asked). */
  confirmLabel: string;
}

export function NewPasswordFields({ password, again, onPassword, onAgain, owner, disabled, confirmLabel }: NewPasswordFieldsProps) {
  const rulesId = useId();
  return (
    <>
      <Input
        label="New password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        disabled={disabled}
        aria-describedby={rulesId}
      />
      <PasswordChecklist id={rulesId} password={password} owner={owner} />
      <Input
        label={confirmLabel}
        type="password"
        autoComplete="new-password"
        value={again}
        onChange={(e) => onAgain(e.target.value)}
        disabled={disabled}
      />
    </>
  );
}

/**
 * Why the typed new password cannot be sent yet (it breaks a rule, or the two do not match), or null. `what` names it
 * in the message: 'new password' beside a current one, else 'password'.
 */
export function newPasswordProblem(
  { password, again }: Pick<NewPasswordValue, 'password' | 'again'>,
  owner: PasswordOwner,
  what: 'password' | 'new password',
): string | null {
  if (passwordProblems(password, owner).length) return `The ${what} does not meet the rules below.`;
  if (password !== again) return `The ${what}s do not match.`;
  return null;
}
