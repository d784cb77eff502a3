import { z } from 'zod';

const configSchema = z.strictObject({}).nullable();

/** The plugin takes no settings: its manifest config must be absent or `{}` (a typo is a setup error, not ignored). */
export function parseToolTelemetryConfig(raw: unknown): void {
  if (!configSchema.safeParse(raw).success) {
    throw new TypeError(`@pi/tool-telemetry takes no config (null or {}), got ${JSON.stringify(raw)?.slice(0, 80)}`);
  }
}
