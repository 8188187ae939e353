// The queue cache on its own: nothing cached while not listening, generation checks, expiry, memory bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { QueueCache, dependsOn, parseChangeScope } from './queue-cache.js';
import { MANAGER_VIEW_TYPES, STAGE_VIEW_TYPES } from '../policies/requests.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const log = { warn: () => undefined };

describe('QueueCache', () => {
  it('caches nothing until it listens, then keeps answers of the current generation only', async () => {
    let now = 1000;
    const cache = new QueueCache(t.db, log, { now: () => now, maxAgeMs: 500 });
    cache.set('a', 'x', cache.generation());
    expect(cache.get('a')).toBeUndefined(); // not listening yet
    await cache.start();
    expect(cache.listening).toBe(true);
    const g = cache.generation();
    cache.set('a', 'one', g);
    expect(cache.get('a')).toBe('one');
    // an answer computed before a change is not kept
    cache.invalidate();
    cache.set('b', 'stale', g);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeUndefined();
    // entries expire
    cache.set('c', 'fresh', cache.generation());
    now += 501;
    expect(cache.get('c')).toBeUndefined();
    await cache.stop();
    expect(cache.get('c')).toBeUndefined();
  });

  it('hears changes committed by any connection', async () => {
    const cache = new QueueCache(t.db, log);
    await cache.start();
    cache.set('k', 'v', cache.generation());
    const g = cache.generation();
    await t.db.query(`UPDATE requests SET updated_at = updated_at WHERE id = (SELECT min(id) FROM requests)`);
    const until = Date.now() + 3000;
    while (cache.generation() === g && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(cache.generation()).toBeGreaterThan(g);
    expect(cache.get('k')).toBeUndefined();
    await cache.stop();
  });

  it('stays within its entry and memory budgets, dropping the oldest first', async () => {
    const cache = new QueueCache(t.db, log, { maxEntries: 3, maxChars: 800 });
    await cache.start();
    const g = cache.generation();
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, k.repeat(50), g);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')).toBe('d'.repeat(50));
    expect(cache.stats().entries).toBe(3);
    cache.set('e', 'e'.repeat(100), g); // exactly an eighth of the budget: still cached
    expect(cache.get('e')).toBe('e'.repeat(100));
    expect(cache.stats().chars).toBeLessThanOrEqual(800);
    cache.set('huge', 'h'.repeat(500), g); // larger than an eighth of the budget: never cached
    expect(cache.get('huge')).toBeUndefined();
    await cache.stop();
  });

  it("drops only what a change can affect: the owner's lists and the queues showing its form type", async () => {
    const cache = new QueueCache(t.db, log);
    await cache.start();
    const hrOnly = STAGE_VIEW_TYPES.hr.find((x) => !STAGE_VIEW_TYPES.finance.includes(x))!;
    const financeType = STAGE_VIEW_TYPES.finance.find((x) => !STAGE_VIEW_TYPES.hr.includes(x) && MANAGER_VIEW_TYPES.includes(x))!;
    const fill = () => {
      const g = cache.generation();
      for (const k of [
        'user-forms|7|7|code|no-pw',
        'user-forms|9|8|code|no-pw',
        'hr|3|All||',
        'finance|4|All||',
        'manager|5|All||',
        'it|6|All|50|',
      ])
        cache.set(k, k, g);
    };
    fill();
    cache.invalidate({ owners: [7], formTypes: [financeType] });
    expect(cache.get('user-forms|7|7|code|no-pw')).toBeUndefined();
    expect(cache.get('user-forms|9|8|code|no-pw')).toBe('user-forms|9|8|code|no-pw'); // someone else's list
    expect(cache.get('hr|3|All||')).toBe('hr|3|All||'); // HR does not see that type
    expect(cache.get('finance|4|All||')).toBeUndefined();
    expect(cache.get('manager|5|All||')).toBeUndefined();
    expect(cache.get('it|6|All|50|')).toBeUndefined(); // unscoped answers go on every change
    // An answer computed before a change of its scope is not kept; one outside the scope is.
    const g = cache.generation();
    cache.invalidate({ owners: [8], formTypes: [hrOnly] });
    cache.set('user-forms|9|8|code|no-pw', 'stale', g);
    cache.set('finance|4|All||', 'fresh', g);
    expect(cache.get('user-forms|9|8|code|no-pw')).toBeUndefined();
    expect(cache.get('finance|4|All||')).toBe('fresh');
    // A line manager's queue goes with the requests of that manager only (when the change names them).
    let g2 = cache.generation();
    cache.set('manager|5|All||', 'five', g2);
    cache.set('manager|6|All||', 'six', g2);
    cache.invalidate({ owners: [7], formTypes: [financeType], lineManagers: [5] });
    expect(cache.get('manager|5|All||')).toBeUndefined();
    expect(cache.get('manager|6|All||')).toBe('six');
    g2 = cache.generation();
    cache.set('manager|5|All||', 'five', g2);
    cache.invalidate({ owners: [7], formTypes: [financeType] }); // managers unknown: every manager's queue
    expect(cache.get('manager|5|All||')).toBeUndefined();
    expect(cache.get('manager|6|All||')).toBeUndefined();
    // No scope: everything.
    const full = cache.stats().fullChanges;
    fill();
    cache.invalidate();
    expect(cache.stats().entries).toBe(0);
    expect(cache.stats().fullChanges).toBe(full + 1);
    await cache.stop();
  });

  it('reads the scope from the signal of every committed change (migration 175), everything for people', async () => {
    expect(parseChangeScope('o=3,4;t=leave-request,petty-cash;m=9')).toEqual({
      owners: [3, 4],
      formTypes: ['leave-request', 'petty-cash'],
      lineManagers: [9],
    });
    expect(parseChangeScope('o=3;t=leave-request')).toEqual({ owners: [3], formTypes: ['leave-request'], lineManagers: undefined });
    expect(parseChangeScope('')).toBeUndefined();
    expect(parseChangeScope('garbage')).toBeUndefined();
    expect(dependsOn('user-forms|1|2|code|pw')).toEqual({ person: 2 });
    expect(dependsOn('manager|1|All||')).toEqual({ role: 'manager', manager: 1 });
    expect(dependsOn('hr|1|All||')).toEqual({ role: 'hr' });
    expect(dependsOn('it|1|All|50|')).toBeUndefined();

    const cache = new QueueCache(t.db, log);
    await cache.start();
    const r = (
      await t.db.query(
        'SELECT id, employee_id, form_type, line_manager_id FROM requests WHERE line_manager_id IS NOT NULL ORDER BY id LIMIT 1',
      )
    ).rows[0];
    const other = (await t.db.query('SELECT id FROM users WHERE id <> $1 ORDER BY id LIMIT 1', [r.employee_id])).rows[0].id;
    const wait = async (g: number) => {
      const until = Date.now() + 3000;
      while (cache.generation() === g && Date.now() < until) await new Promise((res) => setTimeout(res, 5));
      expect(cache.generation()).toBeGreaterThan(g);
    };
    const full = cache.stats().fullChanges;
    const mine = `user-forms|${r.employee_id}|${r.employee_id}|code|no-pw`;
    const theirs = `user-forms|${other}|${other}|code|no-pw`;
    let g = cache.generation();
    cache.set(mine, 'm', g);
    cache.set(theirs, 't', g);
    const ownManager = `manager|${r.line_manager_id}|All||`;
    const otherManager = `manager|${other === r.line_manager_id ? other + 100000 : other}|All||`;
    cache.set(ownManager, 'om', g);
    cache.set(otherManager, 'xm', g);
    await t.db.query('UPDATE requests SET updated_at = updated_at WHERE id = $1', [r.id]);
    await wait(g);
    expect(cache.get(mine)).toBeUndefined();
    expect(cache.get(theirs)).toBe('t');
    expect(cache.get(ownManager)).toBeUndefined();
    expect(cache.get(otherManager)).toBe('xm');
    // an approval row of the request names the same owner
    g = cache.generation();
    cache.set(mine, 'm', g);
    await t.db.query('UPDATE approvals SET comments = comments WHERE request_pk = $1', [r.id]);
    await wait(g);
    expect(cache.get(mine)).toBeUndefined();
    expect(cache.get(theirs)).toBe('t');
    expect(cache.stats().fullChanges).toBe(full);
    // people's names are in every answer: a change to users drops everything
    g = cache.generation();
    await t.db.query('UPDATE users SET first_name = first_name WHERE id = $1', [other]);
    await wait(g);
    expect(cache.get(theirs)).toBeUndefined();
    await cache.stop();
  });
});
