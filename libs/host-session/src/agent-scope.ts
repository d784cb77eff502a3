import type { Context } from '@pi/context';
import type { AgentHarness, SessionCompaction, SessionTree } from '@pi/agent';
import type { CallbackFailures } from '@pi/host-kit';
import type { AgentLanePluginView, AgentNavigationPluginView, AgentPluginScope, SessionIdentity } from '@pi/plugin-api';
import type { SessionLifecycleHooks } from './session-lifecycle-hooks';

/** What every facet's agent view is built over. */
export interface AgentScopeParts {
  readonly harness: AgentHarness;
  readonly identity: SessionIdentity;
  readonly lifecycle: SessionLifecycleHooks;
  /** Where a throwing event listener is recorded (hooks report through the harness's and lifecycle's own). */
  readonly failures?: CallbackFailures;
  /** How hooks and listeners reach the harness (a candidate plugin set's wait until it is live); default: at once. */
  readonly attach?: (attach: () => () => void) => () => void;
  /** How event listeners reach the harness; default: at once. */
  readonly observe?: (attach: () => () => void) => () => void;
}

/** The scoped agent view of one facet: the lane's prompt and abort, the tree to read, its own entries. */
export function agentScope(parts: AgentScopeParts, pluginId: string): AgentPluginScope {
  const { harness, identity } = parts;
  return Object.freeze({
    identity,
    main: laneView(harness),
    sessionTree: treeView(harness.tree),
    navigation: navigationView(harness),
    compaction: compactionView(harness),
    appendCustom: (data, context) => harness.appendCustom(pluginId, data, context),
    appendMessage: (message, data, context) => harness.appendMessage(pluginId, message, data, context),
    get sessionFileFault() {
      return harness.sessionFileFault;
    },
  } satisfies AgentPluginScope);
}

/** The lane's own methods, bound: the object behind them (with its in-memory stop) stays with the host. */
function laneView(harness: AgentHarness): AgentLanePluginView {
  const lane = harness.main;
  return Object.freeze({
    prompt: lane.prompt.bind(lane),
    requestAbort: lane.requestAbort.bind(lane),
    settled: lane.settled.bind(lane),
    steer: lane.steer.bind(lane),
    followUp: lane.followUp.bind(lane),
    withdraw: lane.withdraw.bind(lane),
    get running() {
      return lane.running;
    },
    get queue() {
      return lane.queue;
    },
  });
}

/** Listing, leaf moves and forks beside this session, bound: the navigation object stays with the host. */
function navigationView(harness: AgentHarness): AgentNavigationPluginView {
  const { navigation } = harness;
  return Object.freeze({
    list: navigation.list.bind(navigation),
    moveLeaf: navigation.moveLeaf.bind(navigation),
    fork: (entryId: string | null, context: Context) => navigation.fork(entryId, context),
    get leafId() {
      return navigation.leafId;
    },
  });
}

/** Manual compaction, bound: the harness's object stays with the host. */
function compactionView(harness: AgentHarness): SessionCompaction {
  const { compaction } = harness;
  return Object.freeze({ compact: compaction.compact.bind(compaction) });
}

/**
 * A read-only view of the tree. The harness's tree object also records appended entries in memory; handing it
 * out would let a facet change what the session shows without writing the file (raw mutation).
 */
function treeView(tree: SessionTree): SessionTree {
  return Object.freeze({
    sessionId: tree.sessionId,
    entries: () => tree.entries(),
    branch: () => tree.branch(),
    messages: () => tree.messages(),
    get leafId() {
      return tree.leafId;
    },
  });
}
