import { openHarness, type AgentHarness, type HarnessEvent, type RunOutcome } from '@pi/agent';
import { createSessionDirectory, recordEvents, testHarnessOptions, type SessionDirectory } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible-provider';
import { beginEventStream, chunkEvent, startFakeChatServer, writePiece, type FakeChatHandler } from './testing';
import type { FakeChatServer } from './testing';

// The markers survive every encoding, so any echo of the key, whole or cut, leaves one of them behind; the
// characters between them change under URL-encoding and JSON escaping.
const key = 'LEAKSTART/k+"q"&<x>-LEAKEND';
const jsonEscaped = JSON.stringify(key).slice(1, -1);
const urlEncoded = encodeURIComponent(key);

/** What a server (or the HTTP stack) does for each prompt; the prompt text names the scenario. */
const scenarios: Record<string, FakeChatHandler> = {
  'a mid-stream error chunk': async (_request, response) => {
    beginEventStream(response);
    await writePiece(response, chunkEvent({ content: 'partial ' }));
    response.end(`data: ${JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } })}\n\n`);
  },
  'a non-2xx JSON body': (_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }));
  },
  'a non-2xx text body, URL-encoded and JSON-escaped': (_request, response) => {
    response.writeHead(400, { 'content-type': 'text/plain' });
    response.end(`proxy refused {"authorization":"Bearer ${jsonEscaped}"} for /v1?key=${urlEncoded}`);
  },
  'a 429 body beyond the retry budget': (_request, response) => {
    response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
    response.end(JSON.stringify({ error: `quota exhausted for ${key}` }));
  },
  'a 200 JSON body instead of a stream': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `key ${key} may not use this model` } }));
  },
  'a 200 stream with malformed events': (_request, response) => {
    beginEventStream(response);
    response.end(`data: {"choices": "${jsonEscaped}"}\n\ndata: not json ${key}\n\n`);
  },
  'a connection reset after the key was sent': async (_request, response, raw) => {
    beginEventStream(response);
    await writePiece(response, `data: {"error":{"message":"${jsonEscaped}`);
    raw.socket.destroy();
  },
};

/** Failures no server can produce: the HTTP stack itself throws, quoting what it sent. */
const thrownByFetch: Record<string, () => Response> = {
  'an error thrown by fetch': () => {
    throw new TypeError('fetch failed', { cause: new Error(`socket hang up sending Authorization: Bearer ${key}`) });
  },
  'an error thrown while reading the body': () =>
    new Response(
      new ReadableStream({
        start: (controller) => controller.error(new Error(`TLS alert after header ${urlEncoded}`)),
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    ),
};

let directory: SessionDirectory;
let telemetry: InMemoryTelemetry;
let server: FakeChatServer;
let harness: AgentHarness;

async function openWith(overrides: Partial<OpenAICompatibleProviderOptions>, handler: FakeChatHandler) {
  server = await startFakeChatServer(handler);
  const provider = createOpenAICompatibleProvider({
    id: 'local',
    name: 'Local',
    baseUrl: server.baseUrl,
    models: [{ modelId: 'model-a' }],
    apiKey: async () => key,
    ...overrides,
  });
  harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
}

async function run(prompt: string): Promise<{ outcome: RunOutcome; events: HarnessEvent[] }> {
  const events = recordEvents(harness);
  const accepted = await harness.main.prompt(
    [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    BACKGROUND_CONTEXT,
  );
  return { outcome: await harness.main.settled(accepted._unsafeUnwrap().operationId), events };
}

beforeEach(async () => {
  directory = await createSessionDirectory();
  telemetry = installInMemoryTelemetry();
});

afterEach(async () => {
  await harness.close();
  await server.close();
  telemetry.uninstall();
  await directory.remove();
});

describe('an API key a server echoes', () => {
  const lastPrompt = (body: unknown): string =>
    (body as { messages: Array<{ content: string }> }).messages.at(-1)?.content ?? '';
  const scenarioFetch: typeof fetch = async (url, init) => {
    const thrown = thrownByFetch[lastPrompt(JSON.parse(String(init?.body)))];
    return thrown === undefined ? fetch(url, init) : thrown();
  };

  it.each([...Object.keys(scenarios), ...Object.keys(thrownByFetch)])(
    'in %s never reaches an entry, an event, a span or the session file',
    async (scenario) => {
      await openWith({ fetch: scenarioFetch }, (request, response, raw) =>
        scenarios[lastPrompt(request.body)]?.(request, response, raw),
      );
      const { outcome, events } = await run(scenario);

      expect(outcome.outcome).toBe('failed');
      const recorded = {
        outcome: JSON.stringify(outcome),
        events: JSON.stringify(events),
        entries: JSON.stringify(harness.tree.entries()),
        sessionFile: await readFile(directory.file, 'utf8'),
        spans: JSON.stringify(telemetry.spans()),
      };
      expect(recorded.spans).toContain('agent.run');
      for (const [where, text] of Object.entries(recorded)) {
        expect({ where, leaked: /LEAKSTART|LEAKEND/.test(text) }).toEqual({ where, leaked: false });
      }
    },
  );

  it('is replaced, not dropped: the failure still says what the server said', async () => {
    await openWith({}, scenarios['a non-2xx JSON body'] as FakeChatHandler);
    const { outcome } = await run('hi');
    expect(outcome.error).toBe('Local answered HTTP 401 Unauthorized: Incorrect API key provided: [redacted]');
  });
});

describe('a turn against a server that stops talking', () => {
  it('settles failed with the stall message when the stream stalls after one chunk', async () => {
    // A second: a loaded machine still sends the first chunk long before the stall timer could fire.
    await openWith({ idleTimeoutMs: 1_000 }, async (_request, response) => {
      beginEventStream(response);
      await writePiece(response, chunkEvent({ content: 'thinking…' }));
    });
    const { outcome } = await run('hi');
    expect(outcome).toEqual({ outcome: 'failed', error: 'model stream stalled: no data from Local for 1 s' });
    expect(harness.tree.messages().at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error' });
  });

  it('settles aborted at once when the user aborts while the provider waits out a Retry-After', async () => {
    // Longer than the test's own timeout: only a prompt abort lets the test finish.
    await openWith({}, (_request, response) => {
      response.writeHead(429, { 'retry-after': '25' });
      response.end();
    });
    const events = recordEvents(harness);
    const accepted = await harness.main.prompt(
      [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      BACKGROUND_CONTEXT,
    );
    const { operationId } = accepted._unsafeUnwrap();
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    (await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
    expect(server.requests).toHaveLength(1);
    expect(events.filter((event) => event.type === 'run_settled')).toHaveLength(1);
  });
});
