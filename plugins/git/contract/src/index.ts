export { GIT_PLUGIN_ID } from './plugin-id';
export {
  Git,
  MAX_GIT_ERROR_LENGTH,
  MAX_REF_NAME_LENGTH,
  SHORT_COMMIT_LENGTH,
  UNCHECKED_GIT_STATUS,
  gitChangesSchema,
  gitEventSchema,
  gitStatusSchema,
  type GitChanges,
  type GitEvent,
  type GitService,
  type GitStatus,
} from './git-service';
