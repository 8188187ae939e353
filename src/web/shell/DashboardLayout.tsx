// The frame of every dashboard: header (product title, '{role} Dashboard', employee ID, header action buttons,
// user menu, Logout), an optional assistant column (avatar + chat) and the main content region.
// Below the large breakpoint (phones, tablets) the dashboard's work comes first: the assistant opens from a
// round button as a bottom sheet and stays mounted while closed, so its messages and typed input are kept.
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { LogOut, MessageCircle, X } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useAuth, useCurrentUser } from '../auth/AuthProvider';
import { Badge, Button, cn, focusableIn } from '../ui';
import { UserMenu } from './UserMenu';
import { CoveringPanel } from '../delegation/CoveringPanel';
import { OutOfOfficeButton } from '../delegation/OutOfOfficeButton';

// Calendar, notifications bell, updates dialog and live updates: loaded after the dashboard's first paint.
const HeaderTools = lazy(() => import('../notifications/HeaderTools').then((m) => ({ default: m.HeaderTools })));
// The Chief Smile Officer column (avatar + chat): every dashboard shows it unless it passes its own (or null).
const AssistantPanel = lazy(() => import('../chat/AssistantPanel'));
const defaultAssistant = (
  <Suspense fallback={<p className="p-4 text-sm text-gray-600">Initializing chatbot...</p>}>
    <AssistantPanel />
  </Suspense>
);

/** The eight dashboards; `data-testid="dashboard-{slug}"` marks each one's main region. */
export type DashboardSlug = 'employee' | 'line-manager' | 'hr' | 'it' | 'finance' | 'facilities-desk' | 'facilities-manager' | 'admin';

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
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);
  const [assistantOpen, setAssistantOpen] = useState(false);
  const sheetRef = useRef<HTMLElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const employeeCode = user.profile?.employee_code;

  // The open sheet covers the page on narrow screens (a modal): the page under it does not scroll, focus moves into
  // it and stays there (Tab and Shift+Tab cycle inside, also when the focused control went away), Escape closes it.
  const [sheetModal, setSheetModal] = useState(false);
  useEffect(() => {
    if (!assistantOpen) return;
    const narrow = window.matchMedia('(width < 64rem)').matches;
    if (!narrow) return;
    setSheetModal(true);
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    sheetRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      const sheet = sheetRef.current;
      if (!sheet || event.defaultPrevented) return;
      const active = document.activeElement;
      // A dialog opened above the sheet, or a toast, handles its own keys.
      if (active instanceof Element && active.closest('[role="dialog"]:not(#assistant-panel), [data-layer="toast"]')) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        setAssistantOpen(false);
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableIn(sheet).filter((el) => el.getClientRects().length > 0);
      const inside = active instanceof Node && sheet.contains(active);
      if (items.length === 0) {
        event.preventDefault();
        sheet.focus();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      if (!inside) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && (active === first || active === sheet)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    // The button stays rendered (hidden while the sheet is open): focus returns to it on close.
    const opener = openerRef.current;
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = previous;
      setSheetModal(false);
      opener?.focus();
    };
  }, [assistantOpen]);

  async function onLogout() {
    setLoggingOut(true);
    try {
      await logout();
      // The next person to sign in here starts at the dashboard, not at this person's last screen.
      void navigate('/', { replace: true });
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
        <div className="mx-auto flex max-w-screen-2xl items-center gap-x-2 px-3 py-1.5 sm:gap-x-4 sm:px-6 sm:py-2.5">
          {/* One row at every width: on phones the title shortens (ellipsis) and the employee ID moves out of the header. */}
          <div className="flex min-w-0 flex-1 items-center gap-2 sm:gap-3">
            <div
              className="hidden h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-indigo-600 text-base font-bold text-white sm:flex"
              aria-hidden="true"
            >
              A
            </div>
            <div className="min-w-0">
              <p className="text-xs font-semibold tracking-wide text-indigo-700">AdminEase</p>
              <div className="flex min-w-0 items-center gap-x-3">
                <h1 className="truncate text-sm leading-tight font-semibold text-gray-900 sm:text-lg" title={`${user.role} Dashboard`}>
                  {user.role} Dashboard
                </h1>
                {employeeCode && (
                  <span className="hidden shrink-0 md:inline">
                    <Badge tone="accent">ID: {employeeCode}</Badge>
                  </span>
                )}
              </div>
            </div>
          </div>
          <nav aria-label="Account and tools" className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
            <Suspense fallback={null}>
              <HeaderTools user={user} settings={dashboard !== 'employee'} />
            </Suspense>
            {headerActions}
            {/* Every approver sets an out-of-office period with a delegate (docs/delegation.md). */}
            {dashboard !== 'employee' && <OutOfOfficeButton />}
            <UserMenu user={user} />
            <Button
              variant="ghost"
              size="sm"
              onClick={onLogout}
              loading={loggingOut}
              aria-label="Logout"
              icon={<LogOut className="h-4 w-4" aria-hidden="true" />}
            >
              <span className="hidden sm:inline">Logout</span>
            </Button>
          </nav>
        </div>
      </header>

      <div
        className={cn(
          // Room under the content for the assistant button on narrow screens.
          'mx-auto max-w-screen-2xl px-3 pt-4 pb-20 sm:px-6 sm:pt-6 lg:pb-6',
          Boolean(assistant) && 'grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] xl:grid-cols-[23rem_minmax(0,1fr)]',
        )}
      >
        {assistant && (
          <>
            {assistantOpen && (
              <div className="fixed inset-0 z-40 bg-gray-900/50 lg:hidden" aria-hidden="true" onClick={() => setAssistantOpen(false)} />
            )}
            <aside
              ref={sheetRef}
              id="assistant-panel"
              aria-label="Assistant"
              role={sheetModal ? 'dialog' : undefined}
              aria-modal={sheetModal ? true : undefined}
              tabIndex={-1}
              className={cn(
                'min-w-0 space-y-4 focus:outline-none lg:sticky lg:top-20 lg:block lg:self-start',
                assistantOpen
                  ? 'max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-50 max-lg:max-h-[88dvh] max-lg:overflow-y-auto max-lg:rounded-t-2xl max-lg:bg-gray-50 max-lg:p-3 max-lg:pt-0 max-lg:shadow-2xl'
                  : 'max-lg:hidden',
              )}
            >
              <div className="sticky top-0 z-10 -mx-3 flex items-center justify-between bg-gray-50 px-3 py-2 lg:hidden">
                <p className="text-sm font-semibold text-gray-900">Chief Smile Officer</p>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setAssistantOpen(false)}
                  aria-label="Close assistant"
                  icon={<X className="h-5 w-5" aria-hidden="true" />}
                />
              </div>
              {assistant}
            </aside>
          </>
        )}
        <main
          id="main-content"
          tabIndex={-1}
          data-testid={`dashboard-${dashboard}`}
          className="flex min-w-0 flex-col gap-6 focus:outline-none"
        >
          {/* Items decided for someone away, or escalated to this person: on every dashboard, when there are any.
              Above the dashboard's own work on wide screens; below it on phones, so the work starts on the first screen. */}
          <div className="order-last empty:hidden lg:order-first">
            <CoveringPanel />
          </div>
          {children}
        </main>
      </div>
      {assistant && (
        <button
          ref={openerRef}
          type="button"
          onClick={() => setAssistantOpen(true)}
          aria-controls="assistant-panel"
          aria-expanded={assistantOpen}
          className={cn(
            'fixed right-3 bottom-3 z-30 items-center gap-2 rounded-full bg-indigo-600 px-4 py-3 text-sm font-semibold text-white shadow-lg hover:bg-indigo-700 lg:hidden',
            assistantOpen ? 'hidden' : 'flex',
          )}
          data-testid="open-assistant"
        >
          <MessageCircle className="h-5 w-5" aria-hidden="true" />
          Assistant
        </button>
      )}
    </div>
  );
}
