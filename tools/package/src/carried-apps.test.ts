import { describe, expect, it } from 'vitest';
import { APPS } from '@pi/app-bundle';
import { checkoutShebang } from './carried-apps';
import { WORKSPACE_ROOT } from './workspace-root';

describe('an app the pi package carries', () => {
  it('runs by the #! line of its bin in the checkout: pi-tui with its young generation of npm start', async () => {
    expect(await checkoutShebang(WORKSPACE_ROOT, 'tui', 'pi-tui')).toBe(
      '#!/usr/bin/env -S node --max-semi-space-size=1',
    );
    for (const app of APPS) {
      expect(await checkoutShebang(WORKSPACE_ROOT, app.name, app.output), app.name).toMatch(
        /^#!\/usr\/bin\/env (-S )?node/,
      );
    }
  });
});
