import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/providers-builtin-contract', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
