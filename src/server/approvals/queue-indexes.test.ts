// The queue indexes' predicates against the registry: every partial index on requests whose predicate names
// form types (migrations, replayed in order with their DROP INDEX statements) must name exactly the registry's
// types of the queue it serves, so a chain changed in forms.ts without a migration fails here. Adding a type
// whose queue has no index of its own needs a migration that recreates the index with the new list.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formTypesOfKind, formTypesWithStage } from '../../domain/forms.js';

const DIR = path.resolve(import.meta.dirname, '../db/migrations');

/** The registry list each queue index mirrors. */
const EXPECTED: Record<string, () => string[]> = {
  // line manager: IT tickets not yet acknowledged wait on the manager beside the line-manager stage
  requests_manager_waiting_idx: () => formTypesOfKind('it-ticket'),
  requests_hr_created_idx: () => formTypesWithStage('hr'),
  requests_hr_waiting_idx: () => formTypesWithStage('hr'),
  requests_hr_delegated_idx: () => formTypesWithStage('hr'),
  requests_finance_created_idx: () => formTypesWithStage('finance'),
  requests_finance_open_idx: () => formTypesWithStage('finance'),
  requests_facilities_created_idx: () => formTypesWithStage('facilities_desk'),
  requests_facilities_open_idx: () => formTypesWithStage('facilities_desk'),
};

/** Partial indexes on requests after all migrations: name -> WHERE predicate. */
function requestIndexPredicates(dir = DIR): Map<string, string> {
  const out = new Map<string, string>();
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
  for (const file of files) {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8').replace(/--[^\n]*/g, '');
    for (const stmt of sql.split(';')) {
      const drop = /DROP\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+EXISTS\s+)?(\w+)/i.exec(stmt);
      if (drop) out.delete(drop[1]);
      const m =
        /CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s+ON\s+requests\b[\s\S]*?\bWHERE\b([\s\S]*)$/i.exec(
          stmt,
        );
      if (m) out.set(m[1], m[2].replace(/\s+/g, ' ').trim());
    }
  }
  return out;
}

/** The form types of every `form_type IN (...)` of a predicate. */
function formTypeLists(predicate: string): string[][] {
  return [...predicate.matchAll(/\bform_type\s+IN\s*\(([^)]*)\)/gi)].map((m) => [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]));
}

describe('queue index predicates', () => {
  const predicates = requestIndexPredicates();

  it('parses the migrations (the indexes of migrations 001, 020 and 083 are there)', () => {
    expect([...predicates.keys()]).toEqual(expect.arrayContaining(Object.keys(EXPECTED)));
    expect(formTypeLists("current_stage = 'hr' AND form_type IN ('a', 'b')")).toEqual([['a', 'b']]);
  });

  it("name exactly the registry's types of the queue each index serves", () => {
    for (const [name, predicate] of predicates) {
      const lists = formTypeLists(predicate);
      if (lists.length === 0) continue;
      expect(EXPECTED[name], `${name} names form types; say in this test which registry list it mirrors`).toBeDefined();
      for (const list of lists) expect([...list].sort(), name).toEqual([...EXPECTED[name]()].sort());
    }
  });

  it('fails for a predicate that misses a type of the queue', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-indexes-'));
    try {
      fs.writeFileSync(
        path.join(tmp, '001_x.sql'),
        "CREATE INDEX requests_finance_open_idx ON requests (created_at) WHERE form_type IN ('petty-cash') AND current_stage IS NOT NULL;",
      );
      const [list] = formTypeLists(requestIndexPredicates(tmp).get('requests_finance_open_idx')!);
      expect(list.sort()).not.toEqual(formTypesWithStage('finance').sort());
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
