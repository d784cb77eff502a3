import { describe, expect, it } from 'vitest';
import { frameOwner, summarize } from './profile-summary';

describe('frameOwner', () => {
  it('names packages, scoped or not', () => {
    expect(frameOwner('file:///w/node_modules/@trpc/server/dist/ws.mjs', '/w')).toBe('@trpc/server');
    expect(frameOwner('file:///w/node_modules/ws/lib/sender.js', '/w')).toBe('ws');
  });

  it('names workspace projects and node itself', () => {
    expect(frameOwner('file:///w/libs/remote/src/endpoint.ts', '/w')).toBe('libs/remote');
    expect(frameOwner('file:///w/plugins/models/session/src/x.ts', '/w')).toBe('plugins/models/session');
    expect(frameOwner('node:internal/abort_controller', '/w')).toBe('node');
  });
});

describe('summarize', () => {
  it('splits sample time into self and inclusive time per frame', () => {
    const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0, columnNumber: 0 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2] },
        { id: 2, callFrame: frame('outer'), children: [3] },
        { id: 3, callFrame: frame('inner') },
      ],
      samples: [2, 3, 3],
      timeDeltas: [1000, 2000, 3000],
    };
    const { self, inclusive, owners, totalMs } = summarize(profile);
    expect(totalMs).toBe(6);
    expect(self.get('outer (native)')).toBe(1);
    expect(self.get('inner (native)')).toBe(5);
    expect(inclusive.get('outer (native)')).toBe(6);
    expect(owners.get('inner')).toBe(5);
  });
});
