import type { CompactionRejection, SessionCompaction } from '@pi/agent';
import { COMPACT_ERROR_CODES, type CompactRequest, type CompactResult } from '@pi/chat';
import type { Context } from '@pi/context';
import { RemoteError } from '@pi/remote';

/** `Chat.compact` over the facet's compaction view: the result as it is, a refusal as a RemoteError with its code. */
export async function compactCall(
  compaction: SessionCompaction,
  request: CompactRequest,
  context: Context,
): Promise<CompactResult> {
  const options = request.instructions === undefined ? {} : { instructions: request.instructions };
  const compacted = await compaction.compact(options, context);
  if (compacted.isErr()) throw refusal(compacted.error);
  return compacted.value;
}

function refusal(rejection: CompactionRejection): RemoteError {
  return new RemoteError(COMPACT_ERROR_CODES[rejection.code], rejection.message);
}
