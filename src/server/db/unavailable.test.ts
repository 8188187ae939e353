// Which errors are "the database cannot serve now" (answered 503 with Retry-After) and which are not.
import { describe, expect, it } from 'vitest';
import { databaseTrouble, recentDatabaseTrouble, recordDatabaseTrouble } from './unavailable.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('databaseTrouble', () => {
  it('maps connection, shutdown, resource, timeout and read-only errors to a reason', () => {
    const cases: Array<[unknown, string]> = [
      [pgError('08006'), 'unreachable'],
      [pgError('08001'), 'unreachable'],
      [pgError('53100', 'could not extend file: No space left on device'), 'disk-full'],
      [pgError('53200'), 'out-of-memory'],
      [pgError('53300', 'sorry, too many clients already'), 'too-many-connections'],
      [pgError('53400'), 'insufficient-resources'],
      [pgError('57P01', 'terminating connection due to administrator command'), 'shutting-down'],
      [pgError('57P02'), 'shutting-down'],
      [pgError('57P03', 'the database system is starting up'), 'shutting-down'],
      [pgError('57014', 'canceling statement due to statement timeout'), 'timeout'],
      [pgError('25P03'), 'timeout'],
      [pgError('25006', 'cannot execute INSERT in a read-only transaction'), 'read-only'],
      [
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' }),
        'unreachable',
      ],
      [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'unreachable'],
      [Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }), 'timeout'],
      [new Error('Connection terminated unexpectedly'), 'unreachable'],
      [new Error('Connection terminated due to connection timeout'), 'unreachable'],
      [new Error('timeout exceeded when trying to connect'), 'timeout'],
      [new Error('Query read timeout'), 'timeout'],
      [new Error('Client has encountered a connection error and is not queryable'), 'unreachable'],
      // localhost resolving to ::1 and 127.0.0.1, both refused
      [
        new AggregateError(
          [Object.assign(new Error('a'), { code: 'ECONNREFUSED' }), Object.assign(new Error('b'), { code: 'ECONNREFUSED' })],
          '',
        ),
        'unreachable',
      ],
      [new Error('wrapped', { cause: pgError('53100') }), 'disk-full'],
    ];
    for (const [err, reason] of cases) expect(databaseTrouble(err)?.reason, String((err as Error).message)).toBe(reason);
    expect(databaseTrouble(pgError('53100'))).toEqual({ reason: 'disk-full', code: '53100' });
  });

  it('leaves request and programming errors alone (they stay 4xx/500)', () => {
    for (const err of [
      pgError('23505'),
      pgError('22P02'),
      pgError('42P01'),
      pgError('40001'),
      new TypeError('x is undefined'),
      new Error('boom'),
      'text',
      null,
      undefined,
      { code: 42 },
    ]) {
      expect(databaseTrouble(err)).toBeUndefined();
    }
  });

  it('remembers the last trouble per database handle for a while', () => {
    const db = {};
    expect(recentDatabaseTrouble(db, 1000)).toBeUndefined();
    recordDatabaseTrouble(db, { reason: 'disk-full', code: '53100' }, 10_000);
    expect(recentDatabaseTrouble(db, 1000, 10_500)).toMatchObject({ reason: 'disk-full', code: '53100' });
    expect(recentDatabaseTrouble(db, 1000, 11_001)).toBeUndefined();
    expect(recentDatabaseTrouble({}, 1000, 10_500)).toBeUndefined();
  });
});
