// Joins class names, skipping falsy values (a tiny stand-in for clsx).
export function cn(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}
