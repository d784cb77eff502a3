import type { ForkRejection, NavigationRejection, SessionTree } from '@pi/agent';
import type { Context } from '@pi/context';
import type { AgentNavigationPluginView } from '@pi/plugin-api';
import { TREE_ERROR_CODES, type SessionTreeService, type TreeErrorCode } from '@pi/chat';
import { RemoteError, quoteForError } from '@pi/remote';
import { recordingCall } from './recording-call';
import { toTranscriptEntry } from './transcript-projection';
import { treeNode } from './tree-node';

/**
 * The Tree service over the facet's navigation view. The chat transcript needs nothing from here: a leaf move
 * is an entry, and the chat projection replaces the branch when an entry does not extend it.
 */
export function treeService(navigation: AgentNavigationPluginView, sessionTree: SessionTree): SessionTreeService {
  return {
    async list(request) {
      const page = navigation.list(request.offset, request.limit);
      return { offset: page.offset, total: page.total, leafId: page.leafId, nodes: page.nodes.map(treeNode) };
    },
    async navigate(request, context: Context) {
      const moved = await recordingCall(() => navigation.moveLeaf(request.entryId, context));
      if (moved.isErr()) throw refusal(moved.error, request.entryId);
      return { leafId: moved.value.leafId, moved: moved.value.moved };
    },
    async fork(request, context: Context) {
      const forked = await recordingCall(() => navigation.fork(request.entryId, context));
      if (forked.isErr()) throw refusal(forked.error, request.entryId);
      return { sessionId: forked.value.sessionId, entries: forked.value.entries };
    },
    async entry(request) {
      // A rare call (a presentation editing a message again): a scan of the entries is enough.
      const found = sessionTree.entries().find((entry) => entry.id === request.entryId);
      if (found === undefined || found.kind === 'leaf_moved')
        throw new RemoteError(
          TREE_ERROR_CODES.unknown_entry,
          `No entry ${quoteForError(request.entryId)} in this session`,
        );
      return { entry: toTranscriptEntry(found) };
    },
  };
}

/** The harness's rejection as the service's stable code, quoting the caller's id bounded. */
function refusal(rejection: NavigationRejection | ForkRejection, entryId: string | null): RemoteError {
  const code: TreeErrorCode = TREE_ERROR_CODES[rejection.code];
  const entry = quoteForError(entryId);
  switch (rejection.code) {
    case 'busy':
      return new RemoteError(code, `A run is in progress: the leaf can move once it settles`, {
        operationId: rejection.operationId,
      });
    case 'unknown_entry':
      return new RemoteError(code, `No entry ${entry} in this session`);
    case 'not_resting_point':
      return new RemoteError(
        code,
        `Entry ${entry} is inside a run that had not settled there: choose the run's end or an entry before it`,
      );
  }
}
