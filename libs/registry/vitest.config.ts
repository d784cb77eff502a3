import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/registry', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
