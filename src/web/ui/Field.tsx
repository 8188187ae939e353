// Form fields with a visible label, optional hint and error text wired up through aria-describedby / aria-invalid.
import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';

interface FieldChrome {
  label: ReactNode;
  /** Shown in red beneath the control; marks the control invalid. */
  error?: ReactNode;
  /** Helper text beneath the control. */
  hint?: ReactNode;
  /** Visually hides the label (it stays available to screen readers). */
  hideLabel?: boolean;
  /** Class of the wrapping element. */
  wrapperClassName?: string;
}

const controlClass =
  'block w-full rounded-md border bg-white px-3 text-sm text-gray-900 shadow-sm placeholder:text-gray-400 ' +
  'focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30 focus:outline-none ' +
  'disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-500';

function useFieldIds(id: string | undefined, error: ReactNode, hint: ReactNode) {
  const generated = useId();
  const controlId = id ?? generated;
  const errorId = error ? `${controlId}-error` : undefined;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return { controlId, errorId, hintId, describedBy };
}

function Chrome({
  controlId,
  label,
  hideLabel,
  error,
  errorId,
  hint,
  hintId,
  required,
  wrapperClassName,
  children,
}: FieldChrome & { controlId: string; errorId?: string; hintId?: string; required?: boolean; children: ReactNode }) {
  return (
    <div className={cn('space-y-1', wrapperClassName)}>
      <label htmlFor={controlId} className={cn('block text-sm font-medium text-gray-700', hideLabel && 'sr-only')}>
        {label}
        {required && (
          <span className="ml-0.5 text-red-600" aria-hidden="true">
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={hintId} className="text-xs text-gray-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export type InputProps = FieldChrome & InputHTMLAttributes<HTMLInputElement>;

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input(
  { label, error, hint, hideLabel, wrapperClassName, id, className, ...rest },
  ref,
) {
  const ids = useFieldIds(id, error, hint);
  return (
    <Chrome
      {...ids}
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      required={rest.required}
      wrapperClassName={wrapperClassName}
    >
      <input
        ref={ref}
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={cn(controlClass, 'h-10', error ? 'border-red-500' : 'border-gray-300', className)}
        {...rest}
      />
    </Chrome>
  );
});

export type SelectProps = FieldChrome & SelectHTMLAttributes<HTMLSelectElement>;

export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  { label, error, hint, hideLabel, wrapperClassName, id, className, children, ...rest },
  ref,
) {
  const ids = useFieldIds(id, error, hint);
  return (
    <Chrome
      {...ids}
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      required={rest.required}
      wrapperClassName={wrapperClassName}
    >
      <select
        ref={ref}
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={cn(controlClass, 'h-10 pr-8', error ? 'border-red-500' : 'border-gray-300', className)}
        {...rest}
      >
        {children}
      </select>
    </Chrome>
  );
});

export type TextareaProps = FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement>;

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea(
  { label, error, hint, hideLabel, wrapperClassName, id, className, rows = 4, ...rest },
  ref,
) {
  const ids = useFieldIds(id, error, hint);
  return (
    <Chrome
      {...ids}
      label={label}
      error={error}
      hint={hint}
      hideLabel={hideLabel}
      required={rest.required}
      wrapperClassName={wrapperClassName}
    >
      <textarea
        ref={ref}
        id={ids.controlId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={cn(controlClass, 'py-2', error ? 'border-red-500' : 'border-gray-300', className)}
        {...rest}
      />
    </Chrome>
  );
});
