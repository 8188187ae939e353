// The feature plugins of the server, registered in this order by app.ts. Each feature folder owns its routes.
import type { FastifyInstance } from 'fastify';
import accountRoutes from './accounts/routes.js';
import ssoRoutes from './accounts/sso.js';
import adminRoutes from './admin/routes.js';
import approvalRoutes from './approvals/routes.js';
import assistantChatRoutes from './assistant/routes.js';
import assistantSessionRoutes from './assistant/session-routes.js';
import authRoutes from './auth/routes.js';
import calendarRoutes from './calendar/routes.js';
import delegationRoutes from './delegation/routes.js';
import formsRoutes from './forms/routes.js';
import formTypesRoutes from './form-types/routes.js';
import inputGuard from './hardening/input-guard.js';
import healthRoutes from './health/routes.js';
import itDeskRoutes from './it-desk/routes.js';
import notificationRoutes from './notifications/routes.js';
import observabilityRoutes from './observability/routes.js';
import preferencesRoutes from './preferences/routes.js';
import speechRoutes from './speech/routes.js';

export const FEATURES: Array<(app: FastifyInstance) => Promise<void>> = [
  observabilityRoutes, // first: its hooks see every route registered after it
  inputGuard, // refuses text PostgreSQL cannot store (NUL) on every route
  healthRoutes,
  formTypesRoutes, // loads the form types saved as data into the registry before anything reads it
  authRoutes,
  accountRoutes,
  ssoRoutes,
  assistantSessionRoutes,
  assistantChatRoutes,
  notificationRoutes,
  calendarRoutes,
  approvalRoutes,
  formsRoutes,
  preferencesRoutes,
  itDeskRoutes,
  delegationRoutes, // out of office, covering, the reminders sweep (docs/delegation.md)
  speechRoutes,
  adminRoutes, // /api/admin/*: administrators only (one hook for the whole scope)
];
