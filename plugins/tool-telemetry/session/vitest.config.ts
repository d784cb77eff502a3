import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/tool-telemetry-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
