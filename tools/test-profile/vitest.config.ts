import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/test-profile', include: ['src/**/*.test.ts'] },
});
