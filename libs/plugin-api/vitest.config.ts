import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/plugin-api', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
