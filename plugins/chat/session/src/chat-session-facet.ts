import type { UserMessage } from '@pi/agent';
import {
  Chat,
  CHAT_PLUGIN_ID,
  type ChatEvent,
  type ChatQueue,
  type ChatService,
  type ModelWait,
  type SessionUsage,
  type ShellProgress,
  type StorageStatus,
  type StreamingCheckpoint,
  type TranscriptHead,
  type TranscriptPage,
  Tree,
} from '@pi/chat';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { RemoteError, quoteForError } from '@pi/remote';
import { chatProjection } from './chat-projection';
import { compactCall } from './compact-call';
import { recordingCall } from './recording-call';
import { statusProjection, storageOf } from './status-projection';
import { operationStatus } from './operation-status';
import { acceptedResponse, rejectedResponse } from './prompt-response';
import { chatQueueOf, queueAccepted, queueProjection, queueRejected } from './queue-projection';
import { TranscriptLog } from './transcript-log';
import { exportSession } from './session-export';
import { ShellRunner } from './shell-runner';
import { sessionInfo, usageOf, usageProjection } from './usage-projection';
import { treeService } from './tree-service';

/** The manifest id this facet answers to. */
export const pluginId = CHAT_PLUGIN_ID;

/**
 * The session facet of @pi/chat: the Chat service over the main lane's direct, scoped capabilities. Prompts,
 * steers, follow-ups, withdrawals and aborts go straight to the lane, `compact` to the harness's compaction; what
 * presentations see is a projection of the harness's events. A session file that cannot be written shows in
 * `storage` and reaches each refused call as `session_file_unwritable`.
 */
export function chatSessionFacet(context: CodingAgentSessionPluginContext): void {
  const lane = context.agent.main;
  const tree = context.agent.sessionTree;
  const log = new TranscriptLog(tree);
  const recent = context.remoteState<TranscriptPage>(log.window());
  const transcript = context.remoteState<TranscriptHead>(log.head());
  const streaming = context.remoteState<StreamingCheckpoint | null>(null);
  const events = context.remoteEvents<ChatEvent>();
  context.on('*', chatProjection(tree, log, { recent, transcript, streaming, events }));
  const queue = context.remoteState<ChatQueue>(chatQueueOf(lane.queue));
  context.on('*', queueProjection(queue));
  const storage = context.remoteState<StorageStatus>(storageOf(context.agent.sessionFileFault));
  const waiting = context.remoteState<ModelWait | null>(null);
  context.on('*', statusProjection(storage, waiting));
  const usage = context.remoteState<SessionUsage>(usageOf(tree.entries()));
  context.on('*', usageProjection(usage));
  const shellRun = context.remoteState<ShellProgress | null>(null);
  const shellRunner = new ShellRunner({ agent: context.agent, cwd: context.paths.cwd, live: shellRun });
  context.own(() => shellRunner.dispose());
  const exportParts = {
    sessionId: context.agent.identity.sessionId,
    cwd: context.paths.cwd,
    branch: () => tree.branch(),
  };
  const userMessage = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
  const sendOptions = (operationId: string | undefined) =>
    operationId === undefined ? {} : { clientOperationId: operationId };

  const service: ChatService = {
    recent,
    transcript,
    streaming,
    queue,
    storage,
    waiting,
    usage,
    shellRun,
    events,
    async info() {
      return sessionInfo(context.agent.identity.sessionId, context.paths.sessionFile, tree.entries(), usage.value);
    },
    async prompt(request, callContext) {
      // The lane validates the message (blank text is `invalid_message`), so there is one rule, not two.
      const accepted = await lane.prompt([userMessage(request.text)], callContext, sendOptions(request.operationId));
      return accepted.isOk() ? acceptedResponse(accepted.value) : rejectedResponse(accepted.error);
    },
    async steer(request, callContext) {
      const answer = await lane.steer(userMessage(request.text), callContext, sendOptions(request.operationId));
      return answer.isOk() ? queueAccepted(answer.value) : queueRejected(answer.error);
    },
    async followUp(request, callContext) {
      const answer = await lane.followUp(userMessage(request.text), callContext, sendOptions(request.operationId));
      return answer.isOk() ? queueAccepted(answer.value) : queueRejected(answer.error);
    },
    async withdraw(queueItemId, callContext) {
      const withdrawn = await recordingCall(() => lane.withdraw(queueItemId, callContext));
      if (withdrawn.isOk()) return;
      // The lane's message quotes the id whole; this one quotes it bounded.
      const what = `Queued message ${quoteForError(queueItemId)}`;
      throw withdrawn.error.code === 'queue_item_consumed'
        ? new RemoteError('queue_item_consumed', `${what} was already delivered`)
        : new RemoteError('unknown_queue_item', `${what} is not in this session`);
    },
    async requestAbort(operationId, callContext) {
      const aborted = await recordingCall(() => lane.requestAbort(operationId, callContext));
      // Already settled is the state the caller asked for, so a retried abort is harmless.
      if (aborted.isErr() && aborted.error.code === 'unknown_operation')
        // The lane's message quotes the id whole; this one quotes it bounded.
        throw new RemoteError('unknown_operation', `No operation ${quoteForError(operationId)} in this session`);
    },
    async operation(request) {
      return operationStatus(lane, tree, request.operationId);
    },
    async history(request) {
      return log.page(request.before, request.limit);
    },
    compact: (request, callContext) => recordingCall(() => compactCall(context.agent.compaction, request, callContext)),
    shell: (request, callContext) => shellRunner.run(request, callContext),
    exportHtml: (request) => exportSession(exportParts, request),
  };
  context.provide(Chat, service);
  context.provide(Tree, treeService(context.agent.navigation, tree));
}
