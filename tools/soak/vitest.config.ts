import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/soak', include: ['src/**/*.test.ts'] },
});
