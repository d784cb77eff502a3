import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/permissions', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
