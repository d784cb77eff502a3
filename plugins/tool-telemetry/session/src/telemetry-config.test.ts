import { describe, expect, it } from 'vitest';
import { parseToolTelemetryConfig } from './telemetry-config';

describe('tool-telemetry config', () => {
  it('takes no config, or an empty one', () => {
    expect(() => parseToolTelemetryConfig(null)).not.toThrow();
    expect(() => parseToolTelemetryConfig({})).not.toThrow();
  });

  it.each([[{ arguments: true }], ['on'], [[]]])('refuses %j as a setup error', (raw) => {
    expect(() => parseToolTelemetryConfig(raw)).toThrow(/@pi\/tool-telemetry takes no config/);
  });
});
