import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/settings-contract', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
