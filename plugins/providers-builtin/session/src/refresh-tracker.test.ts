import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { RefreshStatus } from '@pi/providers-builtin';
import { RefreshTracker } from './refresh-tracker';

function tracker() {
  const published: RefreshStatus[] = [];
  return { published, tracker: new RefreshTracker((status) => published.push(status)) };
}

describe('the refresh tracker', () => {
  it('shows refreshing, then the outcome', () => {
    const { published, tracker: refresh } = tracker();
    refresh.started(BACKGROUND_CONTEXT);
    refresh.finished({ status: 'done' }, BACKGROUND_CONTEXT);
    expect(published).toEqual([{ status: 'refreshing' }, { status: 'done' }]);
  });

  it('puts back the status from before an aborted refresh', () => {
    const { published, tracker: refresh } = tracker();
    refresh.report({ status: 'warning', errors: { 'models.json': 'broken' } }, BACKGROUND_CONTEXT);
    refresh.started(BACKGROUND_CONTEXT);
    refresh.abandoned(BACKGROUND_CONTEXT);
    expect(published.at(-1)).toEqual({ status: 'warning', errors: { 'models.json': 'broken' } });
  });

  it('stays refreshing until the last of overlapping refreshes ends', () => {
    const { published, tracker: refresh } = tracker();
    refresh.started(BACKGROUND_CONTEXT);
    refresh.started(BACKGROUND_CONTEXT);
    refresh.abandoned(BACKGROUND_CONTEXT);
    expect(published.at(-1)).toEqual({ status: 'refreshing' });
    refresh.finished({ status: 'done' }, BACKGROUND_CONTEXT);
    expect(published.at(-1)).toEqual({ status: 'done' });
  });

  it('holds a reported outcome back while a refresh runs', () => {
    const { published, tracker: refresh } = tracker();
    refresh.started(BACKGROUND_CONTEXT);
    refresh.report({ status: 'done' }, BACKGROUND_CONTEXT);
    expect(published).toEqual([{ status: 'refreshing' }]);
    refresh.abandoned(BACKGROUND_CONTEXT);
    expect(published.at(-1)).toEqual({ status: 'done' });
  });
});
