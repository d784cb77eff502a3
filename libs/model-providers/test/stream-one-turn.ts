/**
 * Run in a child process by extra-ca-certs.test.ts: streams one turn from the OpenAI-compatible server at argv[2]
 * over the built-in client, and prints the events (or the failure) and whether Node loaded undici (its fetch).
 */
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createOpenAICompatibleProvider } from '../src/index';

const provider = createOpenAICompatibleProvider({
  id: 'local',
  name: 'Local',
  baseUrl: process.argv[2] ?? '',
  models: [{ modelId: 'm' }],
});
const events: unknown[] = [];
let error: string | null = null;
try {
  const request = { modelId: 'm', messages: [], tools: [], thinkingLevel: 'off' } as const;
  for await (const event of provider.stream(request, BACKGROUND_CONTEXT)) events.push(event);
} catch (thrown) {
  error = thrown instanceof Error ? thrown.message : String(thrown);
}
// Node's list of the built-in modules it has loaded (not in its types).
const { moduleLoadList } = process as unknown as { moduleLoadList: readonly string[] };
const undiciLoaded = moduleLoadList.some((module) => module.includes('undici'));
process.stdout.write(`${JSON.stringify({ events, error, undiciLoaded })}\n`);
