import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/session-directory-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
