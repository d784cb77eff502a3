import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/session-repo', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
