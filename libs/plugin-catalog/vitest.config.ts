import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/plugin-catalog', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
