import { err, ok, type Result } from 'neverthrow';
import { z } from '@pi/plugin-api';
import type { RemoteErrorEnvelope } from '@pi/remote';

/** What a command line may carry as `id`, echoed on its response so a client can match them. */
const idSchema = z.union([z.string().max(256), z.number().finite()]);
export type RpcId = z.infer<typeof idSchema>;

const message = z.string().min(1);
const serviceName = z.string().min(1).max(128);

/**
 * The commands `pi --mode rpc` reads, one JSON object per line (docs/rpc-mode.md). Unknown fields are refused, so a
 * misspelt one is told rather than ignored.
 */
const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('prompt'), id: idSchema.optional(), message }),
  z.strictObject({ type: z.literal('steer'), id: idSchema.optional(), message }),
  z.strictObject({ type: z.literal('follow_up'), id: idSchema.optional(), message }),
  z.strictObject({ type: z.literal('abort'), id: idSchema.optional(), operationId: z.string().min(1).optional() }),
  z.strictObject({
    type: z.literal('call'),
    id: idSchema.optional(),
    service: serviceName,
    method: z.string().min(1).max(128),
    args: z.array(z.json()).max(64).optional(),
  }),
  z.strictObject({ type: z.literal('watch'), id: idSchema.optional(), service: serviceName }),
  z.strictObject({ type: z.literal('unwatch'), id: idSchema.optional(), service: serviceName }),
  z.strictObject({ type: z.literal('describe'), id: idSchema.optional() }),
]);

export type RpcCommand = z.infer<typeof commandSchema>;
export type RpcCommandType = RpcCommand['type'];
export const RPC_COMMAND_TYPES: readonly RpcCommandType[] = commandSchema.options.map(
  (option) => option.shape.type.value,
);

/** A line that is no command: what of it could be read (to echo), and why. */
export interface RefusedLine {
  readonly id: RpcId | null;
  readonly command: string | null;
  readonly error: RemoteErrorEnvelope;
}

/** A line as a command, or why not: `invalid_json` for text that is not JSON, `invalid_command` for any other. */
export function readCommand(text: string): Result<RpcCommand, RefusedLine> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return err({ id: null, command: null, error: { code: 'invalid_json', message: `The line is not JSON: ${why}` } });
  }
  const fields =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const id = idSchema.safeParse(fields['id']);
  const type = typeof fields['type'] === 'string' ? fields['type'] : null;
  const refused = (why: string): Result<RpcCommand, RefusedLine> =>
    err({ id: id.success ? id.data : null, command: type, error: { code: 'invalid_command', message: why } });
  if (fields !== value) return refused('A command is a JSON object: {"type": "prompt", "message": "…"}');
  if (type === null || !(RPC_COMMAND_TYPES as readonly string[]).includes(type)) {
    return refused(
      `Unknown command type ${JSON.stringify(fields['type'] ?? null)}: one of ${RPC_COMMAND_TYPES.join(', ')}`,
    );
  }
  const parsed = commandSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  return refused(`Not a valid ${type} command${where}: ${issue?.message ?? 'invalid'}`);
}
