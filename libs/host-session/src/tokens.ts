import { defineLocalService } from '@pi/remote';
import type { RunSettingsSource } from './session-context';

/** The local service the harness asks for run settings; a provider plugin provides it. */
export const RunSettingsService = defineLocalService<RunSettingsSource>('run-settings');
