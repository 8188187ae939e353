// Modal dialog (centred, or a right-hand slide-over drawer): aria-modal, labelled by its title,
// traps focus, closes on Escape or backdrop click, and gives focus back to whatever opened it.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';
import { cn } from './cn';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Short text under the title, announced as the dialog's description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom (e.g. Cancel + Confirm). */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** 'drawer' slides in from the right and fills the height (used for side panels on phones). */
  variant?: 'center' | 'drawer';
  /** Element to focus first; defaults to the first focusable element inside the body, else the dialog. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Backdrop click closes the dialog unless false (e.g. while a form is submitting). */
  closeOnBackdrop?: boolean;
  className?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** The elements inside `root` that Tab can reach (also the assistant sheet's focus trap). */
export function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true',
  );
}

/** Toasts and live regions sit above dialogs on purpose; focus may go there (e.g. a toast's Undo). */
function isInOtherLayer(node: Node): boolean {
  const el = node instanceof HTMLElement ? node : node.parentElement;
  return Boolean(el?.closest('[data-layer="toast"]'));
}

const widths = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl', xl: 'sm:max-w-4xl' } as const;

let openCount = 0;
/** Open dialog panels, the topmost last: only the topmost one keeps the keyboard. */
const openPanels: HTMLElement[] = [];

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  variant = 'center',
  initialFocus,
  closeOnBackdrop = true,
  className,
}: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    if (panel) {
      const target = initialFocus?.current ?? (bodyRef.current && focusableIn(bodyRef.current)[0]) ?? focusableIn(panel)[0] ?? panel;
      target.focus();
    }
    openCount += 1;
    if (panel) openPanels.push(panel);
    // When the focused element disappears (a button replaced by what it revealed, e.g. 'Show New Password'), focus
    // falls to the page body, outside the dialog's own key handling. Tab and Escape pressed then still belong to the
    // topmost dialog: Tab goes back into it, Escape closes it.
    function onDocumentKeyDown(event: globalThis.KeyboardEvent) {
      if (!panel || openPanels[openPanels.length - 1] !== panel) return;
      const active = document.activeElement;
      if (active && panel.contains(active)) return; // handled by the dialog's own handler
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        const items = focusableIn(panel);
        (event.shiftKey ? items[items.length - 1] : items[0])?.focus();
        if (items.length === 0) panel.focus();
      }
    }
    // Focus that lands outside the topmost dialog (a click on the page behind is stopped by the backdrop; this covers
    // scripts and browser moves) is brought back to the dialog.
    function onDocumentFocusIn(event: FocusEvent) {
      if (!panel || openPanels[openPanels.length - 1] !== panel) return;
      const target = event.target as Node | null;
      if (target && !panel.contains(target) && target !== document.body && !isInOtherLayer(target)) panel.focus();
    }
    document.addEventListener('keydown', onDocumentKeyDown);
    document.addEventListener('focusin', onDocumentFocusIn);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onDocumentKeyDown);
      document.removeEventListener('focusin', onDocumentFocusIn);
      const at = panel ? openPanels.lastIndexOf(panel) : -1;
      if (at >= 0) openPanels.splice(at, 1);
      openCount -= 1;
      if (openCount === 0) document.body.style.overflow = previousOverflow;
      // Give focus back to the opener unless the closing action already moved it somewhere useful.
      const active = document.activeElement;
      const focusLost = !active || active === document.body || (panel?.contains(active) ?? false);
      if (focusLost && opener && document.contains(opener)) opener.focus();
    };
    // Focus moves only when the dialog opens, not on every render (initialFocus is a ref: it stays the same).
  }, [open, initialFocus]);

  if (!open) return null;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      // Stop here so an outer dialog (React events bubble through portals) stays open.
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusableIn(panelRef.current);
    if (items.length === 0) {
      event.preventDefault();
      panelRef.current.focus();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  const drawer = variant === 'drawer';

  return createPortal(
    <div className="fixed inset-0 z-50" onKeyDown={onKeyDown}>
      <div
        className="animate-fade-in absolute inset-0 bg-gray-900/50"
        aria-hidden="true"
        onClick={closeOnBackdrop ? () => onCloseRef.current() : undefined}
      />
      <div
        className={cn(
          'pointer-events-none absolute inset-0 flex',
          drawer ? 'justify-end' : 'items-end justify-center sm:items-center sm:p-4',
        )}
      >
        <div
          ref={panelRef}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={description ? descriptionId : undefined}
          tabIndex={-1}
          className={cn(
            'pointer-events-auto flex flex-col bg-white shadow-xl focus:outline-none',
            drawer
              ? 'animate-slide-in-right h-full w-full max-w-sm'
              : cn('animate-pop-in max-h-[92dvh] w-full rounded-t-xl sm:rounded-xl', widths[size]),
            className,
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-5 py-4">
            <div className="min-w-0">
              <h2 id={titleId} className="text-base font-semibold text-gray-900">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="mt-1 text-sm text-gray-600">
                  {description}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={() => onCloseRef.current()}
              className="-m-1.5 rounded-md p-1.5 text-gray-500 hover:bg-gray-100 hover:text-gray-700"
              aria-label="Close dialog"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </button>
          </div>
          <div ref={bodyRef} className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
            {children}
          </div>
          {footer && (
            <div className="flex flex-wrap justify-end gap-2 border-t border-gray-200 bg-gray-50 px-5 py-3 sm:rounded-b-xl">{footer}</div>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
