import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/settings-tui', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
