import { fileURLToPath } from 'node:url';

/** The real pi workspace this project sits in (tools/workspace-tests/src → three levels up). */
export const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

/** Where this project keeps the fixture workspaces it copies. */
export const fixturesRoot = fileURLToPath(new URL('../fixtures/', import.meta.url)).replace(/\/$/, '');
