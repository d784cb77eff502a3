import type { Context } from '@pi/context';
import type { AgentHarness, BeforeToolHook, HarnessEvent, SessionTree } from '@pi/agent';
import type { PluginLifecycleScope } from '@pi/kernel';
import type { CallbackFailures } from '@pi/host-kit';
import type { AgentLanePluginView, AgentNavigationPluginView, AgentPluginScope, SessionIdentity } from '@pi/plugin-api';

/** The scoped agent view of one facet: the lane's prompt and abort, the tree to read, and owned hooks and events. */
export function agentScope(
  harness: AgentHarness,
  pluginId: string,
  identity: SessionIdentity,
  scope: PluginLifecycleScope,
  failures?: CallbackFailures,
): AgentPluginScope {
  return Object.freeze({
    identity,
    main: laneView(harness),
    sessionTree: treeView(harness.tree),
    navigation: navigationView(harness),
    hooks: Object.freeze({ beforeTool: (hook: BeforeToolHook) => owned(scope, harness.hooks.beforeTool(hook)) }),
    events: Object.freeze({
      // A listener that throws is recorded against its plugin (the harness would only contain it).
      subscribe: (listener: (event: HarnessEvent, context: Context) => void) =>
        owned(
          scope,
          harness.events.subscribe(
            failures === undefined ? listener : failures.guard(pluginId, 'event listener', listener),
          ),
        ),
    }),
    appendCustom: (data, context) => harness.appendCustom(pluginId, data, context),
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

/** Owned by the plugin's scope (removed when it is disposed), and removable earlier by the plugin itself. */
function owned(scope: PluginLifecycleScope, remove: () => void): () => void {
  scope.own(remove);
  return remove;
}
