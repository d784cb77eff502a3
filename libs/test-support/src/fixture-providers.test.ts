import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createCatalog, createIndex } from './fixture-providers';

describe('fixture providers', () => {
  it('the catalog refuses a model it does not know, with a service error code', async () => {
    const catalog = createCatalog();
    await expect(catalog.select({ provider: 'x', modelId: 'y' }, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'unknown_model',
    });
    expect(catalog.state.value.selected).toBeNull();
  });

  it('an index job settles when it reaches 100 and a cancel settles it for everyone', async () => {
    const index = createIndex();
    const done = await index.start('/repo', BACKGROUND_CONTEXT);
    await done.advance(120, BACKGROUND_CONTEXT);
    expect(await done.wait(BACKGROUND_CONTEXT)).toEqual({ status: 'done', indexed: 100 });

    const cancelled = await index.start('/repo', BACKGROUND_CONTEXT);
    const waiting = cancelled.wait(BACKGROUND_CONTEXT);
    await cancelled.cancel(BACKGROUND_CONTEXT);
    expect(await waiting).toEqual({ status: 'cancelled', indexed: 0 });
  });
});
