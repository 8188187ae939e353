// A header button with a popover panel (tasks list and similar): toggles on click, closes on Escape,
// an outside click or focus leaving it, and gives focus back to the button.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { cn } from '../ui';

export interface HeaderPopoverProps {
  /** Accessible name of the button, e.g. 'Tasks: 3 open requests'. */
  label: string;
  icon: ReactNode;
  /** Small count badge on the button (hidden when 0 or undefined). */
  badge?: number;
  /** Panel content; receives a function that closes the panel. */
  children: (close: () => void) => ReactNode;
  panelClassName?: string;
}

export function HeaderPopover({ label, icon, badge, children, panelClassName }: HeaderPopoverProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div
      ref={rootRef}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        title={label}
        onClick={() => setOpen((v) => !v)}
        className="relative rounded-md p-2 text-gray-600 hover:bg-gray-100 hover:text-gray-900"
      >
        {icon}
        {badge !== undefined && badge > 0 && (
          <span
            className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-indigo-600 px-1 text-[10px] font-semibold text-white tabular-nums"
            aria-hidden="true"
          >
            {badge > 99 ? '99+' : badge}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={label}
          className={cn(
            'absolute right-0 z-40 mt-2 w-80 max-w-[calc(100vw-2rem)] rounded-lg border border-gray-200 bg-white shadow-lg',
            panelClassName,
          )}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}
