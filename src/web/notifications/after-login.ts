// After a sign-in, form changes are checked and the notifications shown. The auth provider
// calls this once a sign-in succeeds; the 'Form Approval Updates' dialog opens with what it finds.
import { checkChanges } from './api';
import { updatesStore } from './updates-store';

export async function showChangesSinceLastLogout(userId: string | number): Promise<void> {
  updatesStore.add(await checkChanges(userId));
}
