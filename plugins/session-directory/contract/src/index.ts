export {
  SessionDirectory,
  createSessionOptionsSchema,
  sessionRecordSummarySchema,
  type CreateSessionOptions,
  type SessionDirectoryEvent,
  type SessionDirectoryService,
  type SessionDirectoryState,
  type SessionRecordSummary,
} from './directory';
export {
  SESSION_PICKER_ERRORS,
  SessionPicker,
  sessionPickerEntrySchema,
  type SessionPickerEntry,
  type SessionPickerEvent,
  type SessionPickerService,
  type SessionPickerState,
  type UpstreamHealth,
} from './picker';
export { MAX_SESSION_TITLE, sessionTitleSchema } from './fields';
export { SESSION_DIRECTORY_PLUGIN_ID } from './plugin';
