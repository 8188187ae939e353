// GET /api/calendar/holidays?year= (previous, current and next year) and, at startup, the holiday source of leave
// working days (closed holidays only, offline) and the company's calendar settings, kept current on this instance.
import { businessYear } from '../../domain/business-time.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setHolidaySource } from '../forms/leave.js';
import { followCalendarSettings } from './company.js';
import { HolidayService, providerFromConfig, yearsAround } from './service.js';

const HolidaysQuery = z.object({
  year: z.coerce
    .number({ message: 'year must be a number' })
    .int('year must be a whole number')
    .min(1971, 'year must be between 1971 and 2099')
    .max(2099, 'year must be between 1971 and 2099')
    .optional(),
});

export default async function calendarRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const provider = providerFromConfig(app.ctx.config.holidays, app.log);
  app.ctx.onClose.push(await followCalendarSettings(app.ctx.db, app.log));
  const holidays = new HolidayService({ provider });
  setHolidaySource((start, end) => holidays.closedDays(start, end));

  app.get('/api/calendar/holidays', { schema: { querystring: HolidaysQuery } }, async (req) => {
    const q = req.query;
    const year = q.year ?? businessYear(app.ctx.clock.now());
    return { year, years: yearsAround(year), source: provider ? 'offline+provider' : 'offline', holidays: await holidays.around(year) };
  });
}
