import { defineProject } from 'vitest/config';

// The packing tests build, pack and `npm install` real tarballs and start a real host: slow on a 2-core machine.
export default defineProject({
  test: {
    name: '@pi/package',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 480_000,
  },
});
