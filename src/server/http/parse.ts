// One zod schema per endpoint input: parse or answer 400 with the first readable message.
import type { z } from 'zod';
import { firstIssueMessage } from '../../domain/forms.js';
import { badRequest } from './errors.js';

export function parse<S extends z.ZodTypeAny>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw badRequest(firstIssueMessage(r.error));
  return r.data;
}
