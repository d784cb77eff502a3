import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FleetRecords } from '@pi/plugin-api';
import { freshRepo } from '../test/repo-fixture';
import type { SessionRepo } from './session-repo';

const METHODS = ['close', 'create', 'get', 'list', 'remove', 'rename', 'setStatus', 'suggestTitle'] as const;

describe('SessionRepo', () => {
  it('has only record operations and close: no database handle, statement or transaction', () => {
    expectTypeOf<keyof SessionRepo>().toEqualTypeOf<(typeof METHODS)[number]>();
    expectTypeOf<SessionRepo[keyof SessionRepo]>().toBeFunction();
  });

  it('is not what plugins get: FleetRecords cannot set a status or close the store', () => {
    expectTypeOf<FleetRecords>().not.toHaveProperty('setStatus');
    expectTypeOf<FleetRecords>().not.toHaveProperty('close');
  });

  it('at run time, the SQLite repository carries nothing but those methods', async () => {
    const { repo } = await freshRepo();
    expect(Object.keys(repo).sort()).toEqual([...METHODS]);
    for (const method of METHODS) expect(typeof repo[method]).toBe('function');
  });
});
