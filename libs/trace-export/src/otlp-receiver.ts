import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP http/JSON export carried it, with its resource's service.name. */
export interface ReceivedSpan {
  readonly serviceName: string | undefined;
  readonly traceId: string;
  readonly spanId: string;
  /** undefined for a root span (OTLP sends an empty string or nothing). */
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** The spans it links to. */
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>;
}

/** A local OTLP http/JSON collector for tests: it accepts POST /v1/traces and keeps every span it was sent. */
export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (exports go to `${endpoint}/v1/traces`). */
  readonly endpoint: string;
  /** Every span received so far, in arrival order. */
  spans(): readonly ReceivedSpan[];
  /** Resolves with the first received span (already or later) that matches. */
  nextSpan(matches: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  links?: Array<{ traceId: string; spanId: string }>;
}

// The OTLP/JSON body (ExportTraceServiceRequest), only as far as the receiver reads it.
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => void receive(request, response));

  async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    try {
      received.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest));
    } catch {
      response.writeHead(400).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    for (const wake of waiters) wake();
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    nextSpan: (matches) =>
      new Promise((resolve) => {
        const check = () => {
          const found = received.find(matches);
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function spansOf(body: ExportRequest): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
      ?.stringValue;
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        serviceName,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId === undefined || span.parentSpanId === '' ? undefined : span.parentSpanId,
        name: span.name,
        links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
      })),
    );
  });
}
