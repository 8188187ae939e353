// The identity fields the spec's catalogue forms send (employee_id, employee_name, department, manager).
// The server takes identity from the session; these only satisfy the payload contract.
import { displayName, type User } from '../api/types';

export function identityPayload(user: User, defaults: { department: string; manager: string }) {
  return {
    employee_id: user.profile?.employee_code ?? '',
    employee_name: displayName(user),
    department: user.department?.department_name ?? defaults.department,
    manager: user.manager_name ?? user.managerName ?? defaults.manager,
  };
}
