// Shapes of the API answers the web app reads directly (users and profiles); form records are typed by their features.

export interface UserProfile {
  first_name: string | null;
  last_name: string | null;
  employee_code: string | null;
  employee_id: string | number | null;
  hr_id: string | null;
  manager_id: string | number | null;
}

export interface UserDepartment {
  department_code: string | null;
  department_name: string | null;
}

/** The user object of POST /api/auth/login and GET /api/auth/me. */
export interface User {
  id: string | number;
  email: string;
  role: string;
  user_type: string | null;
  department_code: string | null;
  department: UserDepartment | null;
  profile: UserProfile | null;
  firstName?: string | null;
  lastName?: string | null;
  manager_name?: string | null;
  managerName?: string | null;
  /** An administrator asked for a new password: the change-password screen comes before the dashboard. */
  must_change_credentials?: boolean;
}

export interface LoginResponse {
  user: User;
  access_token: string;
}

export interface MeResponse {
  user: User;
}

export interface ChatSessionLoginResponse {
  session_id: string;
  user_id: string;
  user_role: string;
}

/** GET /api/forms/employee-profile/{employeeCode}. */
export interface EmployeeProfile {
  email: string | null;
  department_name: string | null;
  manager_name: string | null;
  hr_contact_name: string | null;
  join_date: string | null;
}

/** 'First Last' from the profile, else the top-level names, else the email. */
export function displayName(user: User): string {
  const first = user.profile?.first_name ?? user.firstName ?? '';
  const last = user.profile?.last_name ?? user.lastName ?? '';
  const name = `${first} ${last}`.trim();
  return name || user.email;
}
