import { createServer } from 'node:http';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A loopback server that answers every provider probe (`GET <baseUrl>/models`) with an empty list. */
export async function startProbeServer(): Promise<{ readonly baseUrl: string; close(): Promise<void> }> {
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** models.json text: `models` models, a hundred per provider, every provider at the probe server. */
export function largeModelsJson(models: number, baseUrl: string, variant = ''): string {
  const providers: Record<string, unknown> = {};
  for (let first = 0; first < models; first += 100) {
    const id = `soak${String(first / 100).padStart(5, '0')}`;
    providers[id] = {
      name: `Soak provider ${id}`,
      baseUrl: `${baseUrl}/${id}/v1`,
      models: Array.from({ length: Math.min(100, models - first) }, (_, index) => ({
        id: `model-${first + index}${variant}`,
        name: `Soak model ${first + index}`,
        reasoning: index % 2 === 0,
        contextWindow: 128_000,
      })),
    };
  }
  return JSON.stringify({ providers }, null, 2);
}

/** Replaces `<configDir>/models.json` as an editor saves: a temporary file renamed over it. */
export async function writeModelsJson(configDir: string, text: string): Promise<void> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const file = join(configDir, 'models.json');
  await writeFile(`${file}.soak-tmp`, text, { mode: 0o600 });
  await rename(`${file}.soak-tmp`, file);
}
