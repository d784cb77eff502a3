import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/tool-telemetry', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
