// A tiny toast provider: useToast().success/error/info(message) shows a dismissible note for a few seconds,
// announced politely (errors assertively) to screen readers. A toast stays while the pointer is over it or focus is
// in it (time to read it, WCAG 2.2.1), and its time starts again when the pointer or focus leaves.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { cn } from './cn';

type ToastKind = 'success' | 'error' | 'info';

interface ToastItem {
  id: number;
  kind: ToastKind;
  message: ReactNode;
}

export interface ToastApi {
  success: (message: ReactNode) => void;
  error: (message: ReactNode) => void;
  info: (message: ReactNode) => void;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** How long a toast stays, in ms; errors stay longer so they can be read. */
const DURATION: Record<ToastKind, number> = { success: 4000, info: 4000, error: 7000 };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const push = useCallback((kind: ToastKind, message: ReactNode) => {
    const id = nextId.current++;
    // Keep the last few only, so a burst of failures cannot fill the screen.
    setToasts((list) => [...list.slice(-3), { id, kind, message }]);
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      success: (m) => push('success', m),
      error: (m) => push('error', m),
      info: (m) => push('info', m),
      dismiss,
    }),
    [push, dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* Never over the header's controls (bell, menu, Logout): on a phone the toasts sit at the bottom, above the
          round assistant button; from the small breakpoint on at the top centre just under the sticky header (dialogs
          keep their action buttons at the bottom and their close button at the top right, outside a centred toast). */}
      <div
        data-layer="toast"
        className="pointer-events-none fixed inset-x-0 bottom-16 z-[60] flex flex-col items-center gap-2 p-3 sm:top-16 sm:bottom-auto"
      >
        <div role="status" aria-live="polite" className="flex w-full flex-col items-center gap-2">
          {toasts
            .filter((t) => t.kind !== 'error')
            .map((t) => (
              <ToastView key={t.id} toast={t} onDismiss={dismiss} />
            ))}
        </div>
        {/* Each error toast is its own alert (announced on insertion), so no empty alert region sits in the page. */}
        {toasts
          .filter((t) => t.kind === 'error')
          .map((t) => (
            <ToastView key={t.id} toast={t} onDismiss={dismiss} role="alert" />
          ))}
      </div>
    </ToastContext.Provider>
  );
}

const looks: Record<ToastKind, { icon: ReactNode; className: string }> = {
  success: { icon: <CheckCircle2 className="h-5 w-5 text-green-600" aria-hidden="true" />, className: 'border-green-200' },
  error: { icon: <XCircle className="h-5 w-5 text-red-600" aria-hidden="true" />, className: 'border-red-200' },
  info: { icon: <Info className="h-5 w-5 text-indigo-600" aria-hidden="true" />, className: 'border-gray-200' },
};

function ToastView({ toast, onDismiss, role }: { toast: ToastItem; onDismiss: (id: number) => void; role?: 'alert' }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    if (held) return undefined;
    const timer = window.setTimeout(() => onDismiss(toast.id), DURATION[toast.kind]);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.kind, onDismiss, held]);

  const look = looks[toast.kind];
  return (
    <div
      role={role}
      data-held={held ? 'true' : undefined}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false);
      }}
      className={cn(
        'animate-pop-in pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border bg-white p-3 text-sm text-gray-800 shadow-lg',
        look.className,
      )}
    >
      {look.icon}
      <div className="min-w-0 flex-1 pt-0.5">{toast.message}</div>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        aria-label="Dismiss notification"
        className="-m-1 rounded p-1 text-gray-400 hover:bg-gray-100 hover:text-gray-600"
      >
        <X className="h-4 w-4" aria-hidden="true" />
      </button>
    </div>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}
