// The password strength rules as a live checklist under a new-password field (the server enforces the same rules).
import { Check, Circle } from 'lucide-react';
import { PASSWORD_RULES, type PasswordOwner } from '../../domain/password-rules';

export function PasswordChecklist({ password, owner, id }: { password: string; owner: PasswordOwner; id?: string }) {
  return (
    <ul id={id} aria-label="Password rules" className="space-y-1 text-xs">
      {PASSWORD_RULES.map((rule) => {
        const ok = password !== '' && rule.ok(password, owner);
        return (
          <li key={rule.id} className={ok ? 'flex items-center gap-1.5 text-green-700' : 'flex items-center gap-1.5 text-gray-600'}>
            {ok ? (
              <Check className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            ) : (
              <Circle className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            )}
            <span>
              {rule.text}
              <span className="sr-only">{ok ? ' (met)' : ' (not met yet)'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The message of a refused new password: the server's text, else a generic one. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
