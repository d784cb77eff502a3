import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/context', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
