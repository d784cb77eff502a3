import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/compiled-script', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
