import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/session-processes', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
