// Error banner: a red alert box (role=alert) with an optional retry and dismiss action.
import type { ReactNode } from 'react';
import { AlertCircle, X } from 'lucide-react';
import { cn } from './cn';

export interface ErrorBannerProps {
  children: ReactNode;
  title?: ReactNode;
  onRetry?: () => void;
  onDismiss?: () => void;
  className?: string;
}

export function ErrorBanner({ children, title, onRetry, onDismiss, className }: ErrorBannerProps) {
  return (
    <div
      role="alert"
      className={cn('flex items-start gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800', className)}
    >
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        {title && <p className="font-semibold">{title}</p>}
        <div>{children}</div>
        {onRetry && (
          <button type="button" onClick={onRetry} className="mt-1 font-medium underline underline-offset-2 hover:text-red-900">
            Try again
          </button>
        )}
      </div>
      {onDismiss && (
        <button type="button" onClick={onDismiss} aria-label="Dismiss" className="-m-1 rounded p-1 hover:bg-red-100">
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
