import { fileURLToPath } from 'node:url';

/** The pi workspace this project sits in (tools/package/src → three levels up). */
export const WORKSPACE_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
