import { describe, expect, expectTypeOf, it } from 'vitest';
import type { FleetRecords } from '@pi/plugin-api';
import { freshRepo } from '../test/repo-fixture';
import type { SessionRepo, SharedRecords } from './session-repo';

const METHODS = ['close', 'create', 'get', 'list', 'remove', 'rename', 'setStatus', 'suggestTitle'] as const;

describe('SessionRepo', () => {
  it('has only record operations, close and whether its records are shared: no database handle, statement or transaction', () => {
    expectTypeOf<keyof SessionRepo>().toEqualTypeOf<(typeof METHODS)[number] | 'shared'>();
    expectTypeOf<SessionRepo[(typeof METHODS)[number]]>().toBeFunction();
    expectTypeOf<SessionRepo['shared']>().toEqualTypeOf<SharedRecords | undefined>();
  });

  it('is not what plugins get: FleetRecords cannot set a status or close the store', () => {
    expectTypeOf<FleetRecords>().not.toHaveProperty('setStatus');
    expectTypeOf<FleetRecords>().not.toHaveProperty('close');
  });

  it('at run time, the SQLite repository carries nothing but those methods: its records are its own, not shared', async () => {
    const { repo } = await freshRepo();
    expect(Object.keys(repo).sort()).toEqual([...METHODS]);
    expect(repo.shared).toBeUndefined();
    for (const method of METHODS) expect(typeof repo[method]).toBe('function');
  });
});
