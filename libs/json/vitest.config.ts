import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/json', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
