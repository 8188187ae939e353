// A header button with a popover panel below it (the bell's dropdown, the calendar): toggles on click, closes on
// Escape (focus back to the button), an outside click or focus leaving it.
import { useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { cn } from '../ui';

export interface HeaderPopoverProps {
  /** The button's accessible name. */
  label: string;
  /** The button's content (icon, badge). */
  button: ReactNode;
  /** The panel's accessible name. */
  panelLabel: string;
  children: (close: () => void) => ReactNode;
  panelClassName?: string;
  testId?: string;
}

export function HeaderPopover({ label, button, panelLabel, children, panelClassName, testId }: HeaderPopoverProps) {
  const [open, setOpen] = useState(false);
  /** On phones the panel is fixed under the header (which may wrap), full width. */
  const [top, setTop] = useState(64);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div
      ref={rootRef}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (open && e.relatedTarget && !rootRef.current?.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={label}
        data-testid={testId}
        onClick={() => {
          if (!open && rootRef.current) {
            const below = rootRef.current.closest('header') ?? rootRef.current;
            setTop(Math.round(below.getBoundingClientRect().bottom + 8));
          }
          setOpen((v) => !v);
        }}
        className={cn(
          'relative flex h-9 w-9 items-center justify-center rounded-md text-gray-600 hover:bg-gray-100 hover:text-gray-900',
          open && 'bg-gray-100 text-gray-900',
        )}
      >
        {button}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={panelLabel}
          // Focusable so focus can stay in the panel when the item holding it goes away.
          tabIndex={-1}
          style={{ '--popover-top': `${top}px` } as CSSProperties}
          className={cn(
            'animate-pop-in fixed inset-x-2 top-(--popover-top) z-40 max-h-[calc(100dvh-var(--popover-top)-0.5rem)] overflow-y-auto sm:max-h-none sm:overflow-visible rounded-lg border border-gray-200 bg-white shadow-lg sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2',
            panelClassName,
          )}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
