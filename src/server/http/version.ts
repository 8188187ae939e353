// The version of a request a write was decided on: `version` in the body (what the dashboards send) or an
// If-Match header ("3", W/"3" or 3). Absent: the caller does not say, and the write is not bound to a version
// (older clients keep working). Compared with the stored one by assertVersion (src/server/requests/repo.ts).
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest } from './errors.js';

const MESSAGE = 'version must be the whole number shown with the request';

/** The optional `version` of a write's body. */
export const versionField = z
  .union(
    [
      z.number({ message: MESSAGE }).int(MESSAGE).min(0, MESSAGE).max(2_147_483_647, MESSAGE),
      z
        .string()
        .trim()
        .regex(/^\d{1,9}$/, MESSAGE)
        .transform(Number),
      z.null(),
    ],
    { message: MESSAGE },
  )
  .optional()
  .transform((v) => (v === null ? undefined : v));

/** The version the caller saw: the body's, else If-Match's; undefined when neither is given. */
export function expectedVersion(req: FastifyRequest, bodyVersion: number | undefined): number | undefined {
  if (bodyVersion !== undefined) return bodyVersion;
  const h = req.headers['if-match'];
  if (h === undefined || (typeof h === 'string' && h.trim() === '')) return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(String(h));
  if (!m) throw badRequest('If-Match must be the version shown with the request');
  return Number(m[1]);
}
