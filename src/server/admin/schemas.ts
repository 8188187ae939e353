// Shared input schemas of the /api/admin routes: paging and date bounds.
import { addDays, isIsoDate, startOfBusinessDate } from '../../domain/business-time.js';
import { z } from 'zod';

export const PAGE_SIZE_MAX = 200;

export const PageQuery = {
  page: z.coerce
    .number({ message: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .default(1),
  page_size: z.coerce
    .number({ message: 'page_size must be a number' })
    .int('page_size must be a whole number')
    .min(1, 'page_size must be at least 1')
    .max(PAGE_SIZE_MAX, `page_size can be at most ${PAGE_SIZE_MAX}`)
    .default(50),
};

/**
 * A bound of a time range: a business date (YYYY-MM-DD, in the organisation's zone) or an ISO instant. `end`
 * bounds are exclusive instants: a date as the end includes that whole day.
 */
export function timeBound(name: string, end: boolean) {
  return z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      if (isIsoDate(v)) return startOfBusinessDate(end ? addDays(v, 1) : v);
      const d = /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : new Date(NaN);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date (YYYY-MM-DD) or an ISO date-time` });
        return z.NEVER;
      }
      return end ? new Date(d.getTime() + 1) : d;
    });
}
