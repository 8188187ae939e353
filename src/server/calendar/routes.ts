// GET /api/calendar/holidays?year= (previous, current and next year) and, at startup, the holiday source of leave
// working days (gazetted closed holidays only, offline).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { setHolidaySource } from '../forms/leave.js';
import { parse } from '../http/parse.js';
import { HolidayService, providerFromEnv, yearsAround } from './service.js';

const HolidaysQuery = z.object({
  year: z.coerce.number({ message: 'year must be a number' }).int('year must be a whole number').min(1971, 'year must be between 1971 and 2099').max(2099, 'year must be between 1971 and 2099').optional(),
});

export default async function calendarRoutes(app: FastifyInstance) {
  const provider = providerFromEnv(process.env, app.log);
  const holidays = new HolidayService({ country: 'IN', provider });
  setHolidaySource((start, end) => holidays.closedDates(start, end));

  app.get('/api/calendar/holidays', async (req) => {
    const q = parse(HolidaysQuery, req.query);
    const year = q.year ?? app.ctx.clock.now().getUTCFullYear();
    return { year, years: yearsAround(year), source: provider ? 'offline+provider' : 'offline', holidays: await holidays.around(year) };
  });
}
