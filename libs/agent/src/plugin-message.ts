import { checkJson, describeJsonViolation } from '@pi/json';
import type { Context } from '@pi/context';
import { err, ok, type Result } from 'neverthrow';
import type { AppendMessageRejection, JsonValue, SessionEntry, UserMessage } from '@pi/agent-contract';
import { eventDeliveryContext } from './harness-events';
import { checkPromptMessages } from './prompt-messages';
import type { SessionWriter } from './session-writer';

/** What a plugin's message is appended with: the writer, and the run in progress (or null). */
export interface PluginMessageParts {
  readonly writer: SessionWriter;
  readonly running: () => string | null;
}

/** A user message a plugin records, with its own data beside it. */
export interface PluginMessage {
  readonly namespace: string;
  readonly message: UserMessage;
  readonly data: JsonValue;
}

/**
 * Appends a plugin's user message (`origin` set) for the model to read from the next request on. The check that no
 * run is in progress and the enqueue happen in one synchronous step, so a prompt accepted after the check is
 * recorded after the message, and the message never lands between a run's messages.
 */
export async function appendMessage(
  parts: PluginMessageParts,
  { namespace, message, data }: PluginMessage,
  context: Context,
): Promise<Result<SessionEntry, AppendMessageRejection>> {
  if (namespace === '') throw new TypeError('a plugin message needs a namespace');
  // As for custom entries: data that is not strict JSON is a bug in the plugin that handed it over.
  const json = checkJson(data, 'data');
  if (json.isErr())
    throw new TypeError(`message data for ${namespace} is not strict JSON: ${describeJsonViolation(json.error)}`);
  const checked = checkPromptMessages([message]);
  if (checked.isErr()) return err(checked.error);
  const [accepted] = checked.value;
  if (accepted === undefined) throw new Error('a checked message was lost');
  const running = parts.running();
  if (running !== null)
    return err({ code: 'busy', message: `Operation ${running} is still running`, operationId: running });
  const origin = { namespace, data: structuredClone(data) };
  const entry = await parts.writer.append(
    { kind: 'message', message: accepted, operationId: null, origin },
    'synced',
    eventDeliveryContext(context),
  );
  return ok(entry);
}
