// Runs before each test file of a vitest project that Nx projects with different timeouts share (see
// `planVitestProjects`): the file gets its own project's timeouts before it is collected, when its tests and hooks
// take the configured ones. Vitest puts the project's config back after each file (`vi.resetConfig`).
import { expect, inject, vi } from 'vitest';
import { PROJECT_TIMEOUTS, timeoutsOfFile } from './file-timeouts';

const file = expect.getState().testPath;
if (file !== undefined) vi.setConfig(timeoutsOfFile(inject(PROJECT_TIMEOUTS) ?? [], file));
