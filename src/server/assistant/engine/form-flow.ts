// Submitting a form by conversation: take what the message says, ask each missing required field one
// question at a time, check the values with the same rules as the API (schema, cross-field rules, leave
// rules), show a summary, and submit through submitForm only after a yes. 'No' or 'cancel' abandons it.
import {
  type FieldDef,
  type FormTypeDef,
  STAGES,
  crossFieldErrors,
  dateRuleIssue,
  formSchema,
  formTypeDef,
  firstIssueMessage,
  isLeaveType,
  requisitionTotal,
} from '../../../domain/forms.js';
import { checkLeaveRules, leaveHolidayNote, workingDays } from '../../forms/leave.js';
import { submitForm } from '../../forms/service.js';
import { HttpError } from '../../http/errors.js';
import { days, fieldValue } from './format.js';
import { type Fields, extractFields, extractFieldsAsTyped, fieldCorrection, fieldsOfError, interpretAnswer } from './fields.js';
import type { Normalised } from './text.js';
import { type PendingForm, type Reply, type TurnContext, reply } from './types.js';
import { isAffirmative, isNegative } from './understand.js';

const CONFIRM_SUGGESTIONS = ['Yes, submit', 'No, cancel'];

function def(formType: string): FormTypeDef {
  return formTypeDef(formType) as FormTypeDef;
}

function missingField(d: FormTypeDef, fields: Fields): FieldDef | undefined {
  return d.fields.find((f) => f.required && (fields[f.name] === undefined || fields[f.name] === null || fields[f.name] === ''));
}

function suggestionsFor(fd: FieldDef): string[] {
  if (fd.type === 'enum' && fd.options) return [...fd.options.slice(0, 4), 'Cancel'];
  if (fd.type === 'date') return ['Tomorrow', 'Next Monday', 'Cancel'];
  if (fd.type === 'time') return ['9am to 10am', '2pm to 3pm', 'Cancel'];
  return ['Cancel'];
}

/** Checks one value alone with the form's schema (other fields ignored); answers the message or undefined. */
function singleFieldError(formType: string, name: string, value: unknown): string | undefined {
  const schema = formSchema(formType);
  const d = def(formType);
  // fill the other required fields with neutral valid values so only this field is judged
  const probe: Fields = {};
  for (const f of d.fields) {
    if (!f.required) continue;
    probe[f.name] =
      f.type === 'date'
        ? '2000-01-03'
        : f.type === 'time'
          ? '09:00'
          : f.type === 'enum'
            ? f.options![0]
            : f.type === 'integer' || f.type === 'money' || f.type === 'number'
              ? Math.max(1, f.min ?? 1)
              : 'x';
  }
  if (d.computedTotal) delete probe[d.computedTotal.field];
  probe[name] = value;
  if (name === 'start_date' || name === 'end_date') {
    probe.start_date = probe.end_date = value;
  }
  if (name === 'departure_date' || name === 'return_date') {
    probe.departure_date = probe.return_date = value;
  }
  if (name === 'start_time') probe.end_time = '23:59';
  if (name === 'end_time') probe.start_time = '00:00';
  const r = schema.safeParse(probe);
  if (r.success) return undefined;
  const issue = r.error.issues.find((i) => i.path[0] === name);
  return issue ? firstIssueMessage({ issues: [issue] } as never) : undefined;
}

function summary(formType: string, fields: Fields): string {
  const d = def(formType);
  const lines = d.fields
    .filter((f) => f.required || (fields[f.name] !== undefined && fields[f.name] !== null && fields[f.name] !== ''))
    .map((f) => `• ${f.label}: ${fieldValue(f, fields[f.name])}`);
  if (isLeaveType(formType) && fields.start_date && fields.end_date) {
    lines.push(`• Working days: ${days(workingDays(String(fields.start_date), String(fields.end_date)))}`);
    const note = leaveHolidayNote(fields.start_date, fields.end_date);
    if (note) lines.push(`• ${note}`);
  }
  const ct = d.computedTotal;
  if (ct && fields[ct.field] === undefined && fields[ct.quantity] !== undefined && fields[ct.unitCost] !== undefined) {
    const totalField = d.fields.find((f) => f.name === ct.field)!;
    lines.push(`• ${totalField.label}: ${fieldValue(totalField, requisitionTotal(fields[ct.quantity], fields[ct.unitCost]))}`);
  }
  const chain = d.chain.map((s) => STAGES[s].label).join(' → ');
  return `Here is your ${d.title}:\n${lines.join('\n')}\n${chain ? `It will go to: ${chain}.\n` : ''}Shall I submit it? (yes / no)`;
}

/** Validates the collected fields with the API's rules; answers the first problem with the fields it concerns. */
async function validate(ctx: TurnContext, formType: string, fields: Fields): Promise<{ message: string; fields: string[] } | undefined> {
  const crossErr = crossFieldErrors(formType, fields);
  if (crossErr) return { message: crossErr, fields: fieldsOfError(formType, crossErr) };
  const parsed = formSchema(formType).safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const msg = firstIssueMessage(parsed.error);
    const name = typeof issue?.path[0] === 'string' ? issue.path[0] : undefined;
    return { message: msg, fields: name ? [name] : fieldsOfError(formType, msg) };
  }
  if (isLeaveType(formType)) {
    try {
      await checkLeaveRules(ctx.db, ctx.user, parsed.data as Fields);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 400) return { message: err.message, fields: fieldsOfError(formType, err.message) };
      throw err;
    }
  }
  return undefined;
}

function ask(pending: PendingForm, fd: FieldDef, prefix = ''): Reply {
  pending.asking = fd.name;
  pending.confirm = false;
  const hint = (pending.retries ?? 0) > 0 ? hintFor(fd) : '';
  return reply(`${prefix}${fd.question}${hint}`, { suggestions: suggestionsFor(fd), intent: `form.ask.${fd.name}` });
}

function hintFor(fd: FieldDef): string {
  switch (fd.type) {
    case 'date':
      return ' (for example 15 March 2027, next Monday or 2027-03-15)';
    case 'time':
      return ' (for example 14:00 or 2pm)';
    case 'integer':
      return ' (a whole number)';
    case 'money':
      return ' (an amount in USD, for example 45.50)';
    case 'enum':
      return ` Please choose one of: ${fd.options!.join(', ')}.`;
    default:
      return '';
  }
}

/** Asks the next missing field, or validates and shows the summary. */
async function advance(ctx: TurnContext, pending: PendingForm, prefix = ''): Promise<Reply> {
  const d = def(pending.formType);
  // drop single values the schema refuses, and say why
  for (const f of d.fields) {
    const v = pending.fields[f.name];
    if (v === undefined || v === null) continue;
    const err = singleFieldError(pending.formType, f.name, v);
    if (err) {
      delete pending.fields[f.name];
      prefix += `${err}. `;
    }
  }
  // the server's date rules (dates before today, the window) on what is known so far: that date is asked again
  const dateIssue = dateRuleIssue(pending.formType, pending.fields, ctx.now);
  if (dateIssue) {
    delete pending.fields[dateIssue.field];
    prefix += `${dateIssue.message}. `;
  }
  const next = missingField(d, pending.fields);
  if (next) return ask(pending, next, prefix);
  const problem = await validate(ctx, pending.formType, pending.fields);
  if (problem) {
    for (const f of problem.fields) delete pending.fields[f];
    const again = missingField(d, pending.fields);
    const msg = `${prefix}That doesn't work: ${problem.message}. `;
    if (again) return ask(pending, again, msg);
    return reply(`${msg}Please tell me what to change, or say cancel.`, { suggestions: ['Cancel'], intent: 'form.invalid' });
  }
  pending.confirm = true;
  pending.asking = undefined;
  return reply(`${prefix}${summary(pending.formType, pending.fields)}`, { suggestions: CONFIRM_SUGGESTIONS, intent: 'form.confirm' });
}

/** Starts a form from the first message. */
export async function startForm(ctx: TurnContext, formType: string, nm: Normalised): Promise<Reply> {
  const d = def(formType);
  const fields = extractFieldsAsTyped(formType, nm.fixed, nm.original, ctx.now);
  const pending: PendingForm = { kind: 'form', formType, fields };
  ctx.state.pending = pending;
  const said = Object.keys(fields).length > 0;
  const intro = said ? `Let's get your ${d.title} ready. ` : `Sure, I'll help you with a ${d.title}. `;
  const r = await advance(ctx, pending, intro);
  if (r.intent === 'form.confirm') r.text = r.text.replace(intro, '');
  return r;
}

async function submit(ctx: TurnContext, pending: PendingForm): Promise<Reply> {
  const d = def(pending.formType);
  try {
    const rec = await submitForm(ctx.db, ctx.user, pending.formType, pending.fields, ctx.now);
    ctx.state.pending = undefined;
    ctx.state.lastRefs = [rec.request_id];
    const first = d.chain[0];
    const who =
      first === 'line_manager' && ctx.user.manager_name
        ? `your line manager (${ctx.user.manager_name})`
        : first
          ? STAGES[first].label
          : 'the team';
    return reply(
      `Done! 🎉 Your ${d.title} ${rec.request_id} has been submitted and is now ${rec.status} with ${who}. I'll keep you posted — you can ask me "what's the status of ${rec.request_id}?" any time.`,
      {
        intent: 'form.submitted',
        requestId: rec.request_id,
        suggestions: [`Status of ${rec.request_id}`, 'Check leave balance', 'Book meeting room', 'Report IT issue'],
      },
    );
  } catch (err) {
    if (err instanceof HttpError && err.statusCode < 500) {
      const names = fieldsOfError(pending.formType, err.message);
      for (const n of names) delete pending.fields[n];
      const again = missingField(d, pending.fields);
      if (again) return ask(pending, again, `I couldn't submit it: ${err.message}. `);
      ctx.state.pending = undefined;
      return reply(`I couldn't submit it: ${err.message}. Nothing was saved.`, { intent: 'form.failed' });
    }
    throw err;
  }
}

function cancelled(ctx: TurnContext, pending: PendingForm): Reply {
  ctx.state.pending = undefined;
  return reply(`No problem — I've cancelled the ${def(pending.formType).title}. Nothing was submitted.`, { intent: 'form.cancelled' });
}

/**
 * Continues a form in progress with the user's message. Answers undefined when the message is clearly
 * about something else (the caller handles it and reminds the user of the open question).
 */
export async function continueForm(
  ctx: TurnContext,
  pending: PendingForm,
  nm: Normalised,
  otherIntent: boolean,
  strongOther = false,
): Promise<Reply | undefined> {
  const lower = nm.lower;
  // a correction of one field ('actually the end date is the 12th', 'no wait, the date should be the 11th') changes
  // that field only, at any step (an answer to the open question is read as an answer below)
  const correction = fieldCorrection(pending.formType, nm.original, ctx.now, pending.fields);
  if (correction && (pending.confirm || !Object.keys(correction).includes(pending.asking ?? ''))) {
    const d = def(pending.formType);
    const ct = d.computedTotal;
    if (ct && (ct.quantity in correction || ct.unitCost in correction)) delete pending.fields[ct.field];
    Object.assign(pending.fields, correction);
    return advance(ctx, pending, 'Updated. ');
  }
  // 'no' / 'cancel' abandons; a longer answer that merely starts with 'no' ('no reason, just personal') is an answer
  const short = lower.split(/\s+/).length <= 4;
  if (
    (isNegative(lower) && (short || pending.confirm)) ||
    (/\b(cancel|abort|forget it|never ?mind)\b/.test(lower) && lower.split(/\s+/).length <= 6)
  ) {
    return cancelled(ctx, pending);
  }

  if (pending.confirm) {
    const { fields: corrections } = extractFields(pending.formType, nm.fixed, ctx.now, pending.fields);
    const changed = Object.entries(corrections).filter(
      ([k, v]) => JSON.stringify(pending.fields[k]) !== JSON.stringify(v) && !/(reason|purpose|justification|description|summary)$/.test(k),
    );
    if (!isAffirmative(lower) && changed.length > 0) {
      for (const [k, v] of changed) pending.fields[k] = v;
      return advance(ctx, pending, 'Updated. ');
    }
    if (isAffirmative(lower)) return submit(ctx, pending);
    if (otherIntent) return undefined;
    return reply('Shall I submit it? Please say yes to submit or no to cancel.', {
      suggestions: CONFIRM_SUGGESTIONS,
      intent: 'form.confirm',
    });
  }

  const asked = pending.asking;
  if (!asked) return advance(ctx, pending);
  const askedDef = def(pending.formType).fields.find((f) => f.name === asked);
  // a clear question about something else ('how many leave days do I have left?') is not an answer; a free-text
  // answer (a reason) only gives way to a question
  if (strongOther && (askedDef?.type !== 'longtext' || /\?\s*$/.test(nm.original))) return undefined;
  // 'yes' / 'ok' / 'no' do not name a room or a reason
  if (
    askedDef &&
    (askedDef.type === 'text' || askedDef.type === 'longtext') &&
    (isAffirmative(lower) || isNegative(lower)) &&
    lower.split(/\s+/).length <= 3
  ) {
    pending.retries = (pending.retries ?? 0) + 1;
    return ask(pending, askedDef, 'I still need this: ');
  }
  const got = interpretAnswer(pending.formType, asked, nm.original, ctx.now, pending.fields);
  if (got[asked] === undefined) {
    if (otherIntent) return undefined;
    pending.retries = (pending.retries ?? 0) + 1;
    for (const [k, v] of Object.entries(got)) pending.fields[k] = v;
    const fd = def(pending.formType).fields.find((f) => f.name === asked)!;
    return ask(pending, fd, "Sorry, I didn't catch that. ");
  }
  pending.retries = 0;
  for (const [k, v] of Object.entries(got)) {
    if (v === null) delete pending.fields[k];
    else pending.fields[k] = v;
  }
  return advance(ctx, pending);
}

/** The open question of a form, to remind the user after answering something else. */
export function pendingQuestion(pending: PendingForm): string {
  if (pending.confirm) return `Shall I still submit your ${def(pending.formType).title}? (yes / no)`;
  const fd = def(pending.formType).fields.find((f) => f.name === pending.asking);
  return fd ? `Back to your ${def(pending.formType).title}: ${fd.question}` : '';
}

/** Starts a form from fields given as values (the external model's tool call); checked like typed answers. */
export async function startFormWithFields(ctx: TurnContext, formType: string, given: Fields): Promise<Reply> {
  const d = def(formType);
  const fields: Fields = {};
  for (const f of d.fields) {
    const v = given[f.name];
    if (v !== undefined && v !== null && v !== '') fields[f.name] = v;
  }
  const pending: PendingForm = { kind: 'form', formType, fields };
  ctx.state.pending = pending;
  return advance(ctx, pending);
}
