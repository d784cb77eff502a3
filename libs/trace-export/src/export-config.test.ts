import { describe, expect, it } from 'vitest';
import { readExportConfig } from './export-config';

const read = (env: NodeJS.ProcessEnv) => readExportConfig(env, 'pi-test');

describe('readExportConfig', () => {
  it('is off when no endpoint is set, or set empty', () => {
    expect(read({})).toEqual({ kind: 'off' });
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_SERVICE_NAME: 'x' })).toEqual({ kind: 'off' });
  });

  it('appends v1/traces to the general endpoint, with or without a trailing slash', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      kind: 'on',
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'pi-test',
    });
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c.example/otlp/' })).toMatchObject({
      tracesUrl: 'https://c.example/otlp/v1/traces',
    });
  });

  it('uses the traces endpoint as is, ahead of the general one', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
    };
    expect(read(env)).toMatchObject({ kind: 'on', tracesUrl: 'http://traces:4318/custom' });
  });

  it('takes service.name from OTEL_SERVICE_NAME', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SERVICE_NAME: 'my-pi' };
    expect(read(env)).toMatchObject({ serviceName: 'my-pi' });
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', () => {
    for (const value of ['localhost:4318', 'not a url', 'file:///tmp/x']) {
      const config = read({ OTEL_EXPORTER_OTLP_ENDPOINT: value });
      expect(config).toMatchObject({ kind: 'refused' });
      expect(config.kind === 'refused' && config.reason).toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
    }
    expect(read({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '::' })).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') as unknown,
    });
  });

  it('refuses gRPC, which this exporter does not speak', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
    expect(read(env)).toMatchObject({ kind: 'refused' });
    expect(read({ ...env, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).toMatchObject({ kind: 'on' });
  });

  it('is off when the SDK is disabled or the traces exporter is none, whatever the endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' };
    expect(read({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toEqual({ kind: 'off' });
    expect(read({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toEqual({ kind: 'off' });
    expect(read({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toEqual({ kind: 'off' });
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'false' })).toMatchObject({ kind: 'on' });
  });
});
