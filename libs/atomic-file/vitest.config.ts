import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/atomic-file', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
