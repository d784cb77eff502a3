import { err, ok } from 'neverthrow';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { JsonValue } from '@pi/json';
import type { PluginLifecycleScope } from '@pi/kernel';
import { CLIENT_ID } from '@pi/remote';
import {
  TOOL_CALL_STEP,
  type OpenView as OpenViewFunction,
  type View,
  type ViewAudience,
  type ViewDefinition,
  type ViewOptions,
} from '@pi/plugin-api';
import type { OpenView, ViewRegistry, ViewStep } from './view-registry';

/**
 * `context.view` for one plugin: every view it opens is owned by its scope. When the plugin is disposed (the
 * session stopping, or the plugin removed), its non-durable views close as `disposed` and its durable ones are
 * only let go: they stay in the file for the next process of the session.
 */
export function pluginViews(registry: ViewRegistry, owner: string, scope: PluginLifecycleScope): OpenViewFunction {
  const held = new Set<OpenView>();
  const holder = Symbol(owner);
  scope.own(() => {
    // A view the plugin's next set (a reload) opened again under its id is that set's now: it stays open.
    for (const view of held)
      if (!view.durable && holders.get(view) === holder) registry.close(view, err('disposed'), BACKGROUND_CONTEXT);
    held.clear();
  });
  return <State, Message, Result_ = unknown>(
    definition: ViewDefinition<State, Message>,
    state: State,
    options: ViewOptions = {},
  ): View<State, Message, Result_> => {
    const opened = registry.open(
      {
        owner,
        definition: definition as unknown as ViewDefinition<JsonValue, JsonValue>,
        state: state as JsonValue,
        to: audienceOf(options),
        durable: options.durable === true,
        ...(options.id === undefined ? {} : { localId: options.id }),
        ...stepOf(options),
      },
      options.context ?? BACKGROUND_CONTEXT,
    );
    if (opened.isErr()) throw new TypeError(`Plugin "${owner}": ${opened.error}`);
    const view = opened.value;
    held.add(view);
    holders.set(view, holder);
    void view.done.then(() => held.delete(view));
    return {
      id: view.viewId,
      get state() {
        return view.state as State;
      },
      set state(next: State) {
        const set = registry.setState(view, next as JsonValue, BACKGROUND_CONTEXT);
        if (set.isErr()) throw new TypeError(`Plugin "${owner}": ${set.error}`);
      },
      on(listener) {
        const typed = listener as (message: JsonValue, from: string) => void;
        view.listeners.add(typed);
        const remove = () => void view.listeners.delete(typed);
        scope.own(remove);
        return remove;
      },
      get shownBy() {
        return view.shownBy;
      },
      onShown(listener) {
        view.shownListeners.add(listener);
        const remove = () => void view.shownListeners.delete(listener);
        scope.own(remove);
        return remove;
      },
      done: view.done as Promise<never>,
      get closed() {
        return registry.get(view.viewId) !== view;
      },
      close(result) {
        registry.close(view, ok(result as JsonValue), BACKGROUND_CONTEXT);
      },
    };
  };
}

/** Which plugin context opened each view last: a reload's new set takes over a view the old one opened by id. */
const holders = new WeakMap<OpenView, symbol>();

/**
 * `originator` is the client whose call the context carries, or, in a tool call, the client whose send started the
 * run; where neither is known (a run no client started, one resumed after a restart) it means all.
 */
function audienceOf(options: ViewOptions): ViewAudience {
  const to = options.to ?? 'all';
  if (to === 'all') return 'all';
  if (to === 'originator') {
    const clientId = options.context?.value(CLIENT_ID) ?? options.context?.value(TOOL_CALL_STEP)?.originator;
    return clientId === undefined || clientId === null ? 'all' : [clientId];
  }
  return [...to];
}

/** The tool call opening the view, kept with it so a parked run that resumes can take it back. */
function stepOf(options: ViewOptions): { step?: ViewStep } {
  const step = options.context?.value(TOOL_CALL_STEP);
  return step === undefined ? {} : { step: { operationId: step.operationId, toolCallId: step.toolCallId } };
}
