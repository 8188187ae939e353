// Data of the form calendar: holidays (GET /api/calendar/holidays, previous/current/next year per call) and the
// signed-in user's own forms (GET /api/forms/user-forms?employee_id=<own employee code>).
import { useQuery } from '@tanstack/react-query';
import type { Holiday } from '../../domain/holidays';
import { api } from '../api/client';

export interface HolidaysAnswer {
  year: number;
  years: number[];
  source: string;
  holidays: Holiday[];
}

export function useHolidays(year: number) {
  return useQuery({
    queryKey: ['holidays', year],
    queryFn: () => api.get<HolidaysAnswer>('/api/calendar/holidays', { query: { year } }),
    staleTime: 12 * 3_600_000,
  });
}

export type UserForms = Record<string, Array<Record<string, unknown>>>;

export function useOwnForms(employeeCode: string | null | undefined) {
  return useQuery({
    queryKey: ['calendar-user-forms', employeeCode],
    queryFn: async () => {
      try {
        return await api.get<UserForms>('/api/forms/user-forms', { query: { employee_id: employeeCode } });
      } catch (error) {
        // The spec: a user-forms failure gives an empty object.
        console.error('Failed to load forms for the calendar', error);
        return {};
      }
    },
    enabled: Boolean(employeeCode),
    staleTime: 30_000,
  });
}
