// Company settings routes (issue 18), registered in the administrators-only /api/admin scope (src/server/admin/routes.ts:
// 403 for everyone else, before any input is read):
//   GET  /api/admin/settings/holidays                 regions that apply and the company's own holidays
//   GET  /api/admin/settings/holiday-regions?country= the countries to choose from, or one country's states
//   PUT  /api/admin/settings/holiday-regions          { regions: ['IN', 'US-CA'] }
//   POST /api/admin/settings/holidays                 { date, name, closed? }
//   PUT / DELETE /api/admin/settings/holidays/{id}
//   GET / PUT /api/admin/settings/leave-policy        { default_annual_leave } and the overrides
//   PUT / DELETE /api/admin/settings/leave-policy/overrides/{employee_code}  { annual_leave_total }
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { availableCountries, availableStates, parseRegion } from '../calendar/company.js';
import { badRequest } from '../http/errors.js';
import {
  addHoliday,
  holidaySettings,
  leavePolicy,
  removeHoliday,
  setDefaultAnnualLeave,
  setLeaveOverride,
  setRegions,
  updateHoliday,
} from './service.js';

const HolidayBody = z.object({
  date: z.string({ message: 'date is required (YYYY-MM-DD)' }),
  name: z.string({ message: 'name is required' }).max(200, 'name must be at most 100 characters'),
  closed: z.boolean({ message: 'closed must be true or false' }).optional(),
});
const HolidayId = z.object({
  id: z.coerce
    .number({ message: 'id must be a holiday number' })
    .int()
    .positive()
    .max(2 ** 53),
});
const RegionsBody = z.object({
  regions: z
    .array(z.string().max(10, 'Unknown regional calendar'), { message: 'regions must be a list of region codes' })
    .max(10, 'At most 10 regional calendars'),
});
const RegionsQuery = z.object({ country: z.string().max(2).optional() });
const LeavePolicyBody = z.object({ default_annual_leave: z.number({ message: 'default_annual_leave must be a number of days' }) });
const OverrideBody = z.object({ annual_leave_total: z.number({ message: 'annual_leave_total must be a number of days' }) });
const CodeParams = z.object({ employee_code: z.string().max(50) });

export default async function settingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.get('/api/admin/settings/holidays', async () => holidaySettings(db));

  app.get('/api/admin/settings/holiday-regions', { schema: { querystring: RegionsQuery } }, async (req) => {
    const country = req.query.country?.toUpperCase();
    if (country === undefined) return { regions: availableCountries() };
    if (!parseRegion(country)) throw badRequest(`Unknown country: ${country}`);
    return { regions: availableStates(country) };
  });

  app.put('/api/admin/settings/holiday-regions', { schema: { body: RegionsBody } }, async (req) => ({
    regions: await setRegions(db, req.user.id, req.body.regions),
  }));

  app.post('/api/admin/settings/holidays', { schema: { body: HolidayBody } }, async (req, reply) =>
    reply.status(201).send(await addHoliday(db, req.user.id, req.body)),
  );

  app.put('/api/admin/settings/holidays/:id', { schema: { params: HolidayId, body: HolidayBody } }, async (req) =>
    updateHoliday(db, req.user.id, req.params.id, req.body),
  );

  app.delete('/api/admin/settings/holidays/:id', { schema: { params: HolidayId } }, async (req, reply) => {
    await removeHoliday(db, req.user.id, req.params.id);
    return reply.status(204).send();
  });

  app.get('/api/admin/settings/leave-policy', async () => leavePolicy(db));

  app.put('/api/admin/settings/leave-policy', { schema: { body: LeavePolicyBody } }, async (req) =>
    setDefaultAnnualLeave(db, req.user.id, req.body.default_annual_leave),
  );

  app.put(
    '/api/admin/settings/leave-policy/overrides/:employee_code',
    { schema: { params: CodeParams, body: OverrideBody } },
    async (req) => setLeaveOverride(db, req.user.id, req.params.employee_code, req.body.annual_leave_total),
  );

  app.delete('/api/admin/settings/leave-policy/overrides/:employee_code', { schema: { params: CodeParams } }, async (req) =>
    setLeaveOverride(db, req.user.id, req.params.employee_code, null),
  );
}
