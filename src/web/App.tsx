// Top-level screen choice: sign-in when nobody is signed in (the address is kept, so a deep link opens once signed
// in), else the dashboard of the user's role (each dashboard is its own lazily loaded chunk) at the URL's screen.
// The web's URLs are listed in domain/web-routes.ts and docs/decisions.md ('Web routes').
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { dashboardForRole, type DashboardKind } from '../domain/roles';
import { CLIENT_ROUTE_PATTERNS, legacyFormRedirect } from '../domain/web-routes';
import { useAuth } from './auth/AuthProvider';
import { LoadingScreen } from './auth/screens';
import { RequestRouteExtras } from './routing/RequestRouteExtras';
import { useWebRoute } from './routing/hooks';
import { SignInPage } from './sign-in/SignInPage';
import { SET_PASSWORD_PATH, SetPasswordPage } from './accounts/SetPasswordPage';
import { EMAIL_ACTION_PATH, EmailActionPage } from './email/EmailActionPage';
import { ForcedPasswordChange } from './accounts/ForcedPasswordChange';
import { DemoBanner } from './shell/DemoBanner';
import { useFormTypesSync } from './forms/form-types-sync';

const dashboards: Record<DashboardKind, LazyExoticComponent<ComponentType>> = {
  it: lazy(() => import('./dashboards/it/ItDashboard').then((m) => ({ default: m.ItDashboard }))),
  hr: lazy(() => import('./dashboards/hr/HrDashboard').then((m) => ({ default: m.HrDashboard }))),
  finance: lazy(() => import('./dashboards/finance/FinanceDashboard').then((m) => ({ default: m.FinanceDashboard }))),
  facilities_manager: lazy(() =>
    import('./dashboards/facilities-manager/FacilitiesManagerDashboard').then((m) => ({ default: m.FacilitiesManagerDashboard })),
  ),
  facilities_desk: lazy(() =>
    import('./dashboards/facilities-desk/FacilitiesDeskDashboard').then((m) => ({ default: m.FacilitiesDeskDashboard })),
  ),
  line_manager: lazy(() => import('./dashboards/line-manager/LineManagerDashboard').then((m) => ({ default: m.LineManagerDashboard }))),
  employee: lazy(() => import('./dashboards/employee/EmployeeDashboard').then((m) => ({ default: m.EmployeeDashboard }))),
  admin: lazy(() => import('./dashboards/admin/AdminDashboard').then((m) => ({ default: m.AdminDashboard }))),
};

export function App() {
  const location = useLocation();
  // Old addresses (?form=leave-request) go to their route, signed in or not.
  const legacy = location.pathname === '/' ? legacyFormRedirect(location.search) : null;
  if (legacy) return <Navigate to={legacy} replace />;
  return (
    <>
      {/* Above every screen, signed in or not, while the server runs in demo mode. */}
      <DemoBanner />
      <Screen />
    </>
  );
}

function Screen() {
  const { user } = useAuth();
  // An invitation or first-run set-up link works whoever is signed in on this browser (a plain path check).
  if (window.location.pathname === SET_PASSWORD_PATH) return <SetPasswordPage />;
  // An approver's Approve / Reject link from an e-mail: its own page, signed in or not (the link is bound to its approver).
  if (window.location.pathname === EMAIL_ACTION_PATH) return <EmailActionPage />;
  if (!user) return <SignInPage />;
  if (user.must_change_credentials) return <ForcedPasswordChange user={user} />;
  return (
    <Routes>
      {CLIENT_ROUTE_PATTERNS.map((path) => (
        <Route key={path} path={path} element={<SignedIn />} />
      ))}
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

function SignedIn() {
  const { user } = useAuth();
  const route = useWebRoute();
  // The server's form types (an administrator's own among them) before any screen lists or opens one.
  const types = useFormTypesSync(Boolean(user));
  if (!user) return null;
  if (!types.ready) return <LoadingScreen title="Loading dashboard" detail="Preparing your requests" />;
  const kind = dashboardForRole(user.role, user.user_type);
  // Only the employee dashboard has the catalogue and form screens.
  if (route.form !== null && kind !== 'employee') return <Navigate to="/" replace />;
  const Dashboard = dashboards[kind];
  return (
    <Suspense fallback={<LoadingScreen title="Loading dashboard" detail="Preparing your requests" />}>
      {/* Keyed by user so nothing of one person's dashboard state survives into the next sign-in. */}
      <Dashboard key={String(user.id)} />
      <RequestRouteExtras />
    </Suspense>
  );
}
