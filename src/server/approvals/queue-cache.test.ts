// The queue cache on its own: nothing cached while not listening, generation checks, expiry, memory bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { QueueCache } from './queue-cache.js';

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
});
