import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/coordinator', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
