import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/tools-core-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
