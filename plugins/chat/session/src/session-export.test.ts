import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportPath } from './session-export';

describe('exportPath', () => {
  it('is pi-session-<id>.html in the working directory when no file is named', () => {
    expect(exportPath('/work/p', 'abc', undefined)).toBe('/work/p/pi-session-abc.html');
  });

  it('reads a relative path from the working directory, keeps an absolute one, and expands ~/', () => {
    expect(exportPath('/work/p', 'abc', 'docs/../out.html')).toBe('/work/p/out.html');
    expect(exportPath('/work/p', 'abc', '/tmp/x.html')).toBe('/tmp/x.html');
    expect(exportPath('/work/p', 'abc', '~/x.html')).toBe(join(homedir(), 'x.html'));
    expect(exportPath('/work/p', 'abc', '~x.html')).toBe('/work/p/~x.html');
  });
});
