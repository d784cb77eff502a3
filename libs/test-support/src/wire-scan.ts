/** Object keys that only a serialized Context, AbortSignal, Error or telemetry object would put on the wire. */
const FORBIDDEN_KEYS = new Set([
  'abortSignal',
  'signal',
  'aborted',
  'onabort',
  'telemetryContext',
  'context',
  'span',
  'stack',
  'cause',
]);

/** Text that only a stack trace or a stringified function would contain. */
const FORBIDDEN_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bat .*:\d+:\d+/, 'a stack frame'],
  [/\n\s+at /, 'a stack frame'],
  [/\[native code\]/, 'a function body'],
  [/\bfunction\s*\w*\s*\(/, 'a function body'],
  [/=>/, 'an arrow function'],
  [/node_modules|\.ts:\d+/, 'a source path'],
];

/**
 * Every way the given frames break the wire rules: a frame that is not JSON, a key that only a Context,
 * signal, error or telemetry object has, a stack trace or function text, or one of `secrets` verbatim.
 * An empty list means the frames are clean.
 */
export function wireViolations(frames: readonly string[], secrets: readonly string[] = []): string[] {
  const violations: string[] = [];
  for (const [index, frame] of frames.entries()) {
    if (frame === 'PING' || frame === 'PONG') continue;
    const where = `frame ${index}`;
    for (const secret of secrets)
      if (frame.includes(secret)) violations.push(`${where}: contains the secret "${secret}"`);
    for (const [pattern, what] of FORBIDDEN_TEXT)
      if (pattern.test(frame)) violations.push(`${where}: contains ${what}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(frame);
    } catch {
      violations.push(`${where}: is not JSON`);
      continue;
    }
    for (const path of forbiddenKeyPaths(parsed, '$')) violations.push(`${where}: has the key ${path}`);
  }
  return violations;
}

function forbiddenKeyPaths(value: unknown, path: string): string[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => forbiddenKeyPaths(item, `${path}[${index}]`));
  return Object.entries(value).flatMap(([key, child]) => [
    ...(FORBIDDEN_KEYS.has(key) ? [`${path}.${key}`] : []),
    ...forbiddenKeyPaths(child, `${path}.${key}`),
  ]);
}
