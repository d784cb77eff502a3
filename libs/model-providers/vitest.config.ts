import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/model-providers', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
