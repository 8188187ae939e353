// People as CSV (issue 18): reading an uploaded file (UTF-8, a header row of person columns; parsed by csv-parse)
// into planner rows, and writing every person out with the same columns, so an export imports back unchanged.
import { parse } from 'csv-parse/sync';
import { PERSON_COLUMNS } from '../../domain/people.js';
import { badRequest } from '../http/errors.js';
import { type Org, type PersonFields, type PlanInput, personJson } from './people.js';

/** Columns that may be cleared with an empty cell; an empty cell of any other column leaves the value as it is. */
const CLEARABLE = new Set(['department', 'manager', 'hr_contact', 'join_date', 'hr_id']);
const COLUMNS = new Set<string>([...PERSON_COLUMNS, 'hr_id']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A spreadsheet runs a cell starting with these as a formula: exported with a leading apostrophe, read back without. */
const FORMULA_START = /^[=+\-@\t\r]/;

export interface ParsedRow {
  input: PlanInput;
  /** Problems of the row's own cells (bad date, number, e-mail): the row is refused with them. */
  errors: string[];
}

export function parsePeopleCsv(text: string): ParsedRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      info: true,
      max_record_size: 64 * 1024,
    }) as never;
  } catch (err) {
    throw badRequest(`The CSV file cannot be read: ${(err as Error).message}`);
  }
  if (records.length === 0) throw badRequest('The CSV file has no rows under its header');
  const header = Object.keys(records[0].record);
  const unknown = header.filter((h) => !COLUMNS.has(h));
  if (unknown.length)
    throw badRequest(`Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the columns are ${PERSON_COLUMNS.join(', ')}`);
  if (!header.includes('employee_code')) throw badRequest('The CSV file needs an employee_code column');

  return records.map(({ record, info }) => {
    const errors: string[] = [];
    const fields: PersonFields = {};
    for (const [column, raw] of Object.entries(record)) {
      const value = raw.startsWith("'") && FORMULA_START.test(raw.slice(1)) ? raw.slice(1) : raw;
      if (value === '') {
        if (CLEARABLE.has(column)) (fields as Record<string, unknown>)[column] = null;
        continue;
      }
      switch (column) {
        case 'annual_leave_total': {
          const n = Number(value);
          if (!/^\d+(\.\d+)?$/.test(value) || n > 365 || (n * 2) % 1 !== 0)
            errors.push(`annual_leave_total must be a number of days from 0 to 365 (halves allowed), not '${value}'`);
          else fields.annual_leave_total = n;
          break;
        }
        case 'active': {
          const v = value.toLowerCase();
          if (['true', 'yes', '1'].includes(v)) fields.active = true;
          else if (['false', 'no', '0'].includes(v)) fields.active = false;
          else errors.push(`active must be true or false, not '${value}'`);
          break;
        }
        case 'email':
          if (!EMAIL.test(value) || value.length > 320) errors.push(`'${value}' is not an e-mail address`);
          else fields.email = value;
          break;
        default:
          if (value.length > 200) errors.push(`${column} can have at most 200 characters`);
          else (fields as Record<string, unknown>)[column] = value;
      }
    }
    if (!fields.employee_code) errors.push('employee_code is required');
    return { input: { line: info.lines, mode: 'upsert', fields }, errors };
  });
}

function cell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Every person (active or not) as CSV, ordered by employee code; manager and HR contact as employee codes. */
export function peopleCsv(org: Org): string {
  const columns = [...PERSON_COLUMNS, 'hr_id'] as const;
  const lines = [columns.join(',')];
  const people = [...org.people.values()].sort((a, b) =>
    a.employee_code < b.employee_code ? -1 : a.employee_code > b.employee_code ? 1 : 0,
  );
  for (const p of people) {
    const j = personJson(p, org.people, org.departments);
    lines.push(columns.map((c) => cell(j[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
