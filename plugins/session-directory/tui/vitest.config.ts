import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/session-directory-tui', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
