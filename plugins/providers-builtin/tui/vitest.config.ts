import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/providers-builtin-tui', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
