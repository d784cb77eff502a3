export {
  JSON_VIOLATIONS,
  checkJson,
  copyJson,
  describeJsonViolation,
  detachJson,
  freezeJson,
  isJsonValue,
  jsonEquals,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
  type JsonViolation,
  type JsonViolationKind,
} from './json';
export {
  SCHEMA_VERDICTS,
  schemaCheck,
  schemaVerdict,
  type SchemaCheck,
  type SchemaVerdict,
  type SchemaVerdictCheck,
} from './schema-check';
export { schemaPassThrough, type PassThrough, type ValueOrigin } from './schema-pass-through';
