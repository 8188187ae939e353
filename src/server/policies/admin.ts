// Who may administer the organisation (issue 18): the administrator alone, by user type. Every /api/admin route
// asks this one rule (src/server/admin/routes.ts, one hook for the whole prefix).
export function isAdministrator(user: { user_type?: string | null }): boolean {
  return user.user_type === 'admin';
}
