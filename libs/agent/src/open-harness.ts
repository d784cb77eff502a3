import { checkJson, describeJsonViolation } from '@pi/json';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { err, ok, type Result } from 'neverthrow';
import { HarnessHooks } from './harness-hooks';
import { clientOperations } from './client-operations';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import { errorMessage } from './error-text';
import { eventDeliveryContext, HarnessEventHub } from './harness-events';
import type { AgentHarness, HarnessOptions, OpenError } from './harness-types';
import { settledOutcomes, settleInterruptedOperations } from './interrupted-operations';
import { MainLane } from './main-lane';
import { findParkedRun } from './parked-run';
import { appendMessage } from './plugin-message';
import { MessageQueue } from './message-queue';
import type { JsonValue } from '@pi/agent-contract';
import { SessionFile } from './session-file';
import { HarnessCompaction } from './session-compaction';
import { HarnessNavigation } from './session-navigation';
import { isValidSessionId } from './session-id';
import { SessionTreeState } from './session-tree';
import { operationOf, SessionWriter } from './session-writer';

/**
 * Opens (or creates) a session file and the harness over it: restores the tree, repairs a torn last line
 * and operations a crash left unsettled (reported in `recovery`), and holds the file's lock until close.
 */
export async function openHarness(options: HarnessOptions): Promise<Result<AgentHarness, OpenError>> {
  if (options.maxTurns !== undefined && (!Number.isInteger(options.maxTurns) || options.maxTurns < 1)) {
    throw new Error(`maxTurns must be a positive integer, got ${options.maxTurns}`);
  }
  let created = false;
  const opened = await SessionFile.open(
    options.file,
    () => ((created = true), newHeader(options)),
    options.appendHandle,
  );
  if (opened.isErr()) return err(opened.error);
  const { file, header, entries, recovery } = opened.value;

  const tree = new SessionTreeState(header.sessionId, entries);
  const events = new HarnessEventHub();
  file.onFaultChanged((fault) =>
    events.emit({ type: 'session_file_fault', operationId: null, fault }, BACKGROUND_CONTEXT),
  );
  const writer = new SessionWriter(file, tree, (entry, context) =>
    events.emit({ type: 'entry_appended', operationId: operationOf(entry), entry }, context),
  );
  const parked = findParkedRun(entries);
  try {
    const settled = await settleInterruptedOperations(entries, writer, BACKGROUND_CONTEXT, parked?.operationId);
    recovery.push(...settled);
  } catch (error) {
    await file.close();
    return err({
      code: 'unreadable',
      message: `cannot settle interrupted operations: ${errorMessage(error)}`,
      file: options.file,
    });
  }
  const hooks = new HarnessHooks(options.hooks);
  let pendingParked = parked?.operationId ?? null;
  const main = new MainLane({
    writer,
    tree,
    hooks,
    events,
    options,
    restoredOutcomes: settledOutcomes(tree.entries()),
    restoredClientOperations: clientOperations(tree.entries()),
    restoredQueue: MessageQueue.restore(tree.entries()),
    parked,
    report: (line) => {
      recovery.push(line);
      pendingParked = null;
    },
  });

  const navigation = new HarnessNavigation({ tree, writer, running: () => main.running, file: options.file, header });
  const compaction = new HarnessCompaction({
    tree,
    writer,
    running: () => main.running,
    settings: options.settings,
    providers: options.providers,
    ...(options.projectEntry === undefined ? {} : { projectEntry: options.projectEntry }),
  });

  let closed: Promise<void> | null = null;
  const harness: AgentHarness = {
    sessionId: header.sessionId,
    cwd: options.cwd,
    main,
    tree,
    navigation,
    compaction,
    hooks,
    events,
    get recovery() {
      return Object.freeze([...recovery]);
    },
    get parked() {
      return pendingParked;
    },
    get sessionFileFault() {
      return file.fault;
    },
    created,
    appendCustom: (namespace, data, context) => appendCustom(writer, namespace, data, context),
    appendMessage: (namespace, message, data, context) =>
      appendMessage({ writer, running: () => main.running }, { namespace, message, data }, context),
    startQueue: () => main.startQueue(),
    close: () => {
      closed ??= (async () => {
        // Refuse appends first, so the stopped run cannot write an aborted message or a settlement.
        file.refuseAppends();
        main.stop();
        await file.close();
      })();
      return closed;
    },
  };
  return ok(Object.freeze(harness));
}

function newHeader(options: HarnessOptions): SessionHeader {
  // The file name is the session id when it is one (as `sessionFilePath` lays files out).
  const fromName = basename(options.file, '.jsonl');
  return {
    type: 'session',
    version: 1,
    sessionId: isValidSessionId(fromName) ? fromName : randomUUID(),
    cwd: options.cwd,
    createdAt: new Date().toISOString(),
  };
}

async function appendCustom(
  writer: SessionWriter,
  namespace: string,
  data: JsonValue,
  context: Context,
): Promise<SessionEntry> {
  if (namespace === '') throw new TypeError('a custom entry needs a namespace');
  // A plugin handing over a Map or a Date is a bug in that plugin: JSON.stringify would silently change it.
  const checked = checkJson(data, 'data');
  if (checked.isErr())
    throw new TypeError(
      `custom entry data for ${namespace} is not strict JSON: ${describeJsonViolation(checked.error)}`,
    );
  return writer.append(
    { kind: 'custom', namespace, data: structuredClone(data) },
    'synced',
    eventDeliveryContext(context),
  );
}
