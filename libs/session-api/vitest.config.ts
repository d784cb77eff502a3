import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/session-api', include: ['src/**/*.test.ts'] },
});
