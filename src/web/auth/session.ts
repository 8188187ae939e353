// Which ids the assistant session endpoints get for a user (/ai/{family}/session/*).
import { dashboardForRole, sessionFamilyForRole, type SessionFamily } from '../../domain/roles';
import type { User } from '../api/types';

/** The session family path segment for the user's role. */
export function chatFamilyFor(user: User): SessionFamily {
  return sessionFamilyForRole(user.role);
}

/** The user id the assistant knows the user by: HR staff are known by their hr_id, everyone else by their user id. */
export function chatUserIdFor(user: User): string {
  const hrId = user.profile?.hr_id;
  if (hrId && dashboardForRole(user.role, user.user_type) === 'hr') return hrId;
  return String(user.id);
}
