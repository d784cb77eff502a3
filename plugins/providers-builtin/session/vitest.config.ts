import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/providers-builtin-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
