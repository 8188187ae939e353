// Top-level screen choice: sign-in when nobody is signed in, else the dashboard of the user's role
// (each dashboard is its own lazily loaded chunk).
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { dashboardForRole, type DashboardKind } from '../domain/roles';
import { useAuth } from './auth/AuthProvider';
import { LoadingScreen } from './auth/screens';
import { SignInPage } from './sign-in/SignInPage';
import { DemoBanner } from './shell/DemoBanner';

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
  line_manager: lazy(() =>
    import('./dashboards/line-manager/LineManagerDashboard').then((m) => ({ default: m.LineManagerDashboard })),
  ),
  employee: lazy(() => import('./dashboards/employee/EmployeeDashboard').then((m) => ({ default: m.EmployeeDashboard }))),
};

export function App() {
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
  if (!user) return <SignInPage />;
  const Dashboard = dashboards[dashboardForRole(user.role, user.user_type)];
  return (
    <Suspense fallback={<LoadingScreen title="Loading dashboard" detail="Preparing your requests" />}>
      {/* Keyed by user so nothing of one person's dashboard state survives into the next sign-in. */}
      <Dashboard key={String(user.id)} />
    </Suspense>
  );
}
