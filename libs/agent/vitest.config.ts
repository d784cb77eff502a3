import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/agent', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
