import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/trace-export', include: ['src/**/*.test.ts'] },
});
