// Spinner: the one loading indicator of the app; announces its label to screen readers unless decorative.
import { cn } from './cn';

export interface SpinnerProps {
  /** Text for screen readers; omit for a decorative spinner inside a labelled control. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const sizes = { sm: 'h-4 w-4', md: 'h-5 w-5', lg: 'h-8 w-8' } as const;

export function Spinner({ label, size = 'md', className }: SpinnerProps) {
  const svg = (
    <svg className={cn('animate-spin text-current', sizes[size], className)} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
  if (!label) return svg;
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {svg}
      <span className="sr-only">{label}</span>
    </span>
  );
}
