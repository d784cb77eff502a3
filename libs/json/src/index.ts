export {
  JSON_VIOLATIONS,
  checkJson,
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
export { schemaCheck, type SchemaCheck } from './schema-check';
