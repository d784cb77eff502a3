import { defineLocalService } from '@pi/remote';
import type { RunSettingsSource } from './session-context';

/** The local service the session host asks for run settings; the plugin that owns model selection provides it. */
export const RunSettingsService = defineLocalService<RunSettingsSource>('run-settings');
