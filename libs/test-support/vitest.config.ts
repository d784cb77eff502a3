import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/test-support', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
