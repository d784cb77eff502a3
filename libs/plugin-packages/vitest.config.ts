import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/plugin-packages', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
