// What a person who must change their password may still call (administrators' account routes are guarded by
// the /api/admin scope, policies/admin.ts).

export const PASSWORD_CHANGE_REQUIRED = 'You must change your password before you continue.';

/**
 * The routes a session whose user must change their password may call (the edge refuses every other one with 403
 * until the change): who am I, the change itself, signing out, and the assistant session the web opens and closes
 * with sign-in and sign-out.
 */
export const ROUTES_BEFORE_PASSWORD_CHANGE: ReadonlySet<string> = new Set([
  '/api/auth/me',
  '/api/auth/change-password',
  '/api/auth/logout',
  '/ai/:family/session/login',
  '/ai/:family/session/logout',
]);
