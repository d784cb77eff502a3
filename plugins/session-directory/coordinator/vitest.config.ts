import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/session-directory-coordinator', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
