import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/kernel', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
