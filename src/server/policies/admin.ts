// Who may administer the organisation (issue 18): the administrator alone, by user type. Every /api/admin route
// asks this one rule (src/server/admin/routes.ts, one hook for the whole prefix).
export function isAdministrator(user: { user_type?: string | null }): boolean {
  return user.user_type === 'admin';
}

/** An administrator whose account is active (a deactivated one cannot sign in, so administers nothing). */
export function isActiveAdministrator(user: { user_type?: string | null; active?: boolean | null }): boolean {
  return user.active !== false && isAdministrator(user);
}

/**
 * The organisation always keeps one active administrator (nobody else can administer it, or undo the change): the
 * refusal (409) of a change that takes `name`'s administration away (deactivation, another user type) when
 * `activeAdministratorsAfter` would be none; null when the change may go ahead. Asked by the people editor and
 * import (admin/people.ts) and by deactivation (admin/deactivate.ts).
 */
export function lastAdministratorRefusal(name: string, activeAdministratorsAfter: number): string | null {
  if (activeAdministratorsAfter > 0) return null;
  return `${name} is the last active administrator and cannot be deactivated or stop being an administrator; make another person an administrator first`;
}
