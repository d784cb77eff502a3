export { PERMISSIONS_PLUGIN_ID } from './plugin-id';
export {
  CONFIRM_DECISIONS,
  ConfirmInteraction,
  MAX_CONFIRM_TIMEOUT_MS,
  MAX_DETAIL_LENGTH,
  MAX_DETAIL_LINES,
  MAX_SUMMARY_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  confirmRequestSchema,
  confirmResponseSchema,
  type ConfirmRequest,
  type ConfirmResponse,
  type SessionGrantScope,
} from './confirm';
export { DENIAL_CODES, permissionDeniedDetailsSchema, type DenialCode, type PermissionDeniedDetails } from './denial';
