// What a /requests/<id> URL shows besides the dashboards' own details: 'Request not found' when the server answers
// so (a request the person may not see answers exactly like one that does not exist), and on an approver's
// dashboard the details of the person's own request (their dashboard has no list of their own requests).
import { dashboardForRole } from '../../domain/roles';
import { ApiError } from '../api/client';
import { useCurrentUser } from '../auth/AuthProvider';
import { FormDetailsModal } from '../forms/FormDetailsModal';
import { submissionOf } from '../forms/submissions';
import { Button, Dialog } from '../ui';
import { useRequestRoute, useRouteDetailsHost, useRouteRequest } from './hooks';

export const REQUEST_NOT_FOUND = 'Request not found';

export function RequestRouteExtras() {
  const user = useCurrentUser();
  const route = useRequestRoute();
  const { requestId, query } = useRouteRequest();
  const host = useRouteDetailsHost();
  if (!requestId) return null;

  if (query.isError) {
    const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <Dialog
        open
        onClose={route.close}
        title={notFound ? REQUEST_NOT_FOUND : 'Request could not be loaded'}
        size="sm"
        footer={<Button onClick={route.close}>Back to dashboard</Button>}
      >
        <p className="text-sm text-gray-700" data-testid="request-route-error">
          {notFound
            ? `There is no request ${requestId} that you can see. Check the link, or find the request in your dashboard.`
            : 'Check your connection and try again.'}
        </p>
      </Dialog>
    );
  }

  if (host === 'own' && query.data && dashboardForRole(user.role, user.user_type) !== 'employee') {
    const submission = submissionOf(query.data);
    return <FormDetailsModal open submission={submission} siblings={submission ? [submission] : []} onClose={route.close} />;
  }
  return null;
}
