// The frame of every dashboard: header (product title, '{role} Dashboard', employee ID, header action buttons,
// user menu, Logout), an optional assistant column (avatar + chat) and the main content region.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { LogOut } from 'lucide-react';
import { useAuth, useCurrentUser } from '../auth/AuthProvider';
import { Badge, Button, cn } from '../ui';
import { UserMenu } from './UserMenu';

// Calendar, notifications bell, updates dialog and live updates: loaded after the dashboard's first paint.
const HeaderTools = lazy(() => import('../notifications/HeaderTools').then((m) => ({ default: m.HeaderTools })));
// The Chief Smile Officer column (avatar + chat): every dashboard shows it unless it passes its own (or null).
const AssistantPanel = lazy(() => import('../chat/AssistantPanel'));
const defaultAssistant = (
  <Suspense fallback={<p className="p-4 text-sm text-gray-600">Initializing chatbot...</p>}>
    <AssistantPanel />
  </Suspense>
);

/** The seven dashboards; `data-testid="dashboard-{slug}"` marks each one's main region. */
export type DashboardSlug =
  | 'employee'
  | 'line-manager'
  | 'hr'
  | 'it'
  | 'finance'
  | 'facilities-desk'
  | 'facilities-manager';

export interface DashboardLayoutProps {
  /** Which dashboard this is; sets data-testid="dashboard-{slug}" on <main>. */
  dashboard: DashboardSlug;
  /** Buttons placed in the header before the user menu: calendar, notifications bell, messages, tasks, settings. */
  headerActions?: ReactNode;
  /** The avatar panel and chat panel; shown in a left column on wide screens and above the content on phones. */
  assistant?: ReactNode;
  children: ReactNode;
}

export function DashboardLayout({ dashboard, headerActions, assistant = defaultAssistant, children }: DashboardLayoutProps) {
  const user = useCurrentUser();
  const { logout } = useAuth();
  const [loggingOut, setLoggingOut] = useState(false);
  const employeeCode = user.profile?.employee_code;

  async function onLogout() {
    setLoggingOut(true);
    try {
      await logout();
    } finally {
      setLoggingOut(false);
    }
  }

  return (
    <div className="min-h-dvh bg-gray-50">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-indigo-700 focus:shadow"
      >
        Skip to main content
      </a>
      <header className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2.5 sm:px-6">
          {/* The title keeps at least 13rem: when the tools do not fit beside it (phones), they wrap to a row of their own. */}
          <div className="flex min-w-[min(100%,13rem)] flex-1 items-center gap-3">
            <div
              className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-indigo-600 text-base font-bold text-white"
              aria-hidden="true"
            >
              A
            </div>
            <div className="min-w-0">
              <p className="text-xs font-semibold tracking-wide text-indigo-700">AdminEase</p>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <h1 className="text-base leading-tight font-semibold break-words text-gray-900 sm:text-lg">{user.role} Dashboard</h1>
                {employeeCode && <Badge tone="accent">ID: {employeeCode}</Badge>}
              </div>
            </div>
          </div>
          <nav aria-label="Account and tools" className="ml-auto flex items-center gap-1">
            <Suspense fallback={null}>
              <HeaderTools user={user} />
            </Suspense>
            {headerActions}
            <UserMenu user={user} />
            <Button variant="ghost" size="sm" onClick={onLogout} loading={loggingOut} aria-label="Logout" icon={<LogOut className="h-4 w-4" aria-hidden="true" />}>
              <span className="hidden sm:inline">Logout</span>
            </Button>
          </nav>
        </div>
      </header>

      <div
        className={cn(
          'mx-auto max-w-screen-2xl px-4 py-4 sm:px-6 sm:py-6',
          Boolean(assistant) && 'grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] xl:grid-cols-[23rem_minmax(0,1fr)]',
        )}
      >
        {assistant && (
          <aside aria-label="Assistant" className="min-w-0 space-y-4 lg:sticky lg:top-20 lg:self-start">
            {assistant}
          </aside>
        )}
        <main id="main-content" tabIndex={-1} data-testid={`dashboard-${dashboard}`} className="min-w-0 space-y-6 focus:outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
