import { afterEach, expect, it } from 'vitest';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

/** The client README's session example, loaded as the file the README quotes (libs/client checks the quote). */
const EXAMPLE = new URL('../../../libs/client/examples/session-models.ts', import.meta.url).href;

let sandbox: SessionSandbox | undefined;
let session: SessionProcess | undefined;
afterEach(async () => {
  await session?.stop('SIGKILL');
  await sandbox?.remove();
});

it(
  "the client README's example runs against a real pi-session and ends; with none running it fails with one clear error",
  async () => {
    const { selectModel } = (await import(EXAMPLE)) as {
      selectModel: (cwd: string, log: (line: string) => void, dataDir?: string) => Promise<void>;
    };
    sandbox = await createSandbox();
    await expect(selectModel(sandbox.cwd, () => undefined, sandbox.dataDir)).rejects.toMatchObject({
      code: 'unavailable',
      message: `No session is running in ${sandbox.cwd}`,
    });

    session = runPiSession(sandbox, sandbox.flags);
    await session.listening();
    const lines: string[] = [];
    await selectModel(sandbox.cwd, (line) => lines.push(line), sandbox.dataDir);
    expect(lines).toEqual(['models: echo, thinker', 'selected: echo']);
  },
  PROCESS_TEST_TIMEOUT_MS,
);
