import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/coordinator-api', include: ['src/**/*.test.ts'] },
});
