import { randomUUID } from 'node:crypto';
import { ok, err, type Result } from 'neverthrow';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { checkJson, type JsonValue } from '@pi/json';
import { CLIENT_ID, RemoteError, createRemoteEvents } from '@pi/remote';
import {
  addresses,
  type ViewAudience,
  type ViewCloseReason,
  type ViewDefinition,
  type ViewDelta,
  type ViewEnd,
  type ViewRecord,
  type ViewsService,
} from '@pi/plugin-api';
import { viewsCell } from './views-cell';

/** The tool call a view was opened by (from `TOOL_CALL_STEP`): a parked run that resumes takes it back. */
export interface ViewStep {
  readonly operationId: string;
  readonly toolCallId: string;
}

/** A durable view as it is written beside the session file and read back after a restart. */
export interface StoredView {
  readonly viewId: string;
  readonly owner: string;
  readonly component: string;
  readonly state: JsonValue;
  readonly to: ViewAudience;
  readonly step?: ViewStep;
}

type MessageListener = (message: JsonValue, from: string) => void;

/** One open view as the registry holds it. */
export interface OpenView {
  readonly viewId: string;
  readonly owner: string;
  readonly component: string;
  readonly durable: boolean;
  readonly step: ViewStep | undefined;
  /** Who sees it; a durable view none of whose addressees is connected is handed to the next client (see below). */
  to: ViewAudience;
  state: JsonValue;
  version: number;
  /** The component's schemas, once a plugin opened (or re-claimed) it; a restored view has none until then. */
  definition: ViewDefinition<JsonValue, JsonValue> | undefined;
  readonly listeners: Set<MessageListener>;
  readonly shownListeners: Set<(shownBy: number) => void>;
  /** The last `shownBy` its listeners heard. */
  shownBy: number;
  readonly done: Promise<Result<JsonValue, ViewEnd>>;
  readonly settle: (outcome: Result<JsonValue, ViewEnd>) => void;
}

export interface ViewRegistryOptions {
  /** Views a previous process of this session left open (durable ones), restored with their ids. */
  readonly restored?: readonly StoredView[];
  /** Called after every change to the durable views, with all of them (the host writes them beside the session). */
  readonly persist?: (views: readonly StoredView[]) => void;
  /** A plugin's message listener threw: recorded against the plugin, never thrown at the client. */
  readonly onListenerFailure?: (owner: string, message: string) => void;
}

export interface OpenRequest {
  readonly owner: string;
  readonly definition: ViewDefinition<JsonValue, JsonValue>;
  readonly state: JsonValue;
  readonly to: ViewAudience;
  readonly durable: boolean;
  /** A stable id within the owner; random when absent. */
  readonly localId?: string;
  /** The tool call that opens it, if a tool does. */
  readonly step?: ViewStep;
}

/**
 * Every open view of the session: the authority behind `context.view` and the `views` service. It keeps the
 * snapshot section current, publishes the deltas to each view's audience only, checks client messages against
 * the component's schema, and closes a non-durable view whose last addressee left (`no_clients`).
 */
export class ViewRegistry {
  readonly #views = new Map<string, OpenView>();
  readonly #clients = new Set<string>();
  /** Per connected client, the components it declared it renders. */
  readonly #renderers = new Map<string, ReadonlySet<string>>();
  readonly #options: ViewRegistryOptions;
  #version = 0;
  readonly #cell = viewsCell(() => [...this.#views.values()].map(recordOf));
  readonly #deltas = createRemoteEvents<ViewDelta>({
    projectFor: (delta, viewer) => (addresses(delta.to, viewer.clientId) ? delta : undefined),
  });
  readonly service: ViewsService;

  constructor(options: ViewRegistryOptions = {}) {
    this.#options = options;
    for (const stored of options.restored ?? []) {
      const view = this.#newView({ ...stored, step: stored.step, durable: true, definition: undefined });
      this.#views.set(stored.viewId, view);
    }
    this.service = {
      open: this.#cell,
      deltas: this.#deltas,
      message: (viewId, message, context) => this.#message(viewId, message, context),
      show: async (components, context) => {
        const clientId = context.value(CLIENT_ID);
        if (clientId === undefined || !this.#clients.has(clientId)) return;
        this.#renderers.set(clientId, new Set(components));
        this.#shownChanged();
      },
    };
  }

  get(viewId: string): OpenView | undefined {
    return this.#views.get(viewId);
  }

  /** Opens a view, or returns the one open (or restored) under the same stable id, claimed by its definition. */
  open(request: OpenRequest, context: Context): Result<OpenView, string> {
    const state = checkedState(request.definition, request.state);
    if (state.isErr()) return err(state.error);
    const viewId = `${request.owner}:${request.localId ?? randomUUID()}`;
    const existing = this.#views.get(viewId);
    if (existing !== undefined) {
      if (existing.component !== request.definition.component) {
        return err(`view "${viewId}" is open with component "${existing.component}"`);
      }
      const claimed = existing.definition === undefined;
      existing.definition = request.definition;
      if (claimed) {
        // A restored view is answerable again: clients that were told `unavailable` hear it and may send again.
        existing.version = ++this.#version;
        this.#cell.publish(context);
      }
      return ok(existing);
    }
    const view = this.#newView({
      viewId,
      owner: request.owner,
      component: request.definition.component,
      durable: request.durable,
      step: request.step,
      to: request.to,
      state: state.value,
      definition: request.definition,
    });
    this.#views.set(viewId, view);
    view.shownBy = this.shownBy(view);
    this.#cell.publish(context);
    if (view.durable) this.#persist();
    return ok(view);
  }

  /** Replaces a view's state (checked against its schema) and sends it to the view's audience. */
  setState(view: OpenView, state: JsonValue, context: Context): Result<void, string> {
    if (this.#views.get(view.viewId) !== view) return err(`view "${view.viewId}" is closed`);
    const checked = view.definition === undefined ? ok(state) : checkedState(view.definition, state);
    if (checked.isErr()) return err(checked.error);
    view.state = checked.value;
    view.version = ++this.#version;
    this.#cell.touch();
    const { viewId, to, version } = view;
    this.#deltas.emit({ type: 'view_state', viewId, state: view.state, to, version }, context);
    if (view.durable) this.#persist();
    return ok(undefined);
  }

  close(view: OpenView, outcome: Result<JsonValue, ViewEnd>, context: Context): void {
    if (this.#views.get(view.viewId) !== view) return;
    this.#views.delete(view.viewId);
    const reason: ViewCloseReason = outcome.isOk() ? 'closed' : outcome.error;
    const { viewId, to } = view;
    this.#cell.publish(context);
    this.#deltas.emit({ type: 'view_closed', viewId, reason, to, version: ++this.#version }, context);
    if (view.durable) this.#persist();
    view.settle(outcome);
  }

  /** The host stops: durable views stay (in the file, for the next process); the others close as `disposed`. */
  closeAll(filter: (view: OpenView) => boolean): void {
    for (const view of [...this.#views.values()]) {
      if (filter(view)) this.close(view, err('disposed'), BACKGROUND_CONTEXT);
    }
  }

  /**
   * Restored views no plugin took back close as `disposed`: nothing could answer them. Returns their ids. Those a
   * tool call of `resuming` (the parked run the session resumes) opened are kept: its tool takes them back by id when
   * it runs again, and once that run settles they are let go like the others.
   */
  closeUnclaimed(resuming: string | null = null): string[] {
    const unclaimed = [...this.#views.values()].filter(
      (view) => view.definition === undefined && (resuming === null || view.step?.operationId !== resuming),
    );
    for (const view of unclaimed) this.close(view, err('disposed'), BACKGROUND_CONTEXT);
    return unclaimed.map((view) => view.viewId);
  }

  /**
   * A client attaches. Client ids are per connection, so a TUI that reattaches (or any client after a restart) has a
   * new one: a durable view none of whose addressees is still connected is handed to it, as "reattach sees every
   * view" asks. Published before the client can watch (this runs at its hello).
   */
  clientConnected(clientId: string): void {
    this.#clients.add(clientId);
    let adopted = false;
    for (const view of this.#views.values()) {
      if (!view.durable || view.to === 'all' || view.to.some((id) => this.#clients.has(id) && id !== clientId))
        continue;
      if (view.to.includes(clientId)) continue;
      view.to = [...view.to.filter((id) => this.#clients.has(id)), clientId];
      view.version = ++this.#version;
      adopted = true;
    }
    if (adopted) {
      this.#cell.publish(BACKGROUND_CONTEXT);
      this.#persist();
    }
  }

  /** How many connected addressees of the view declared its component. */
  shownBy(view: OpenView): number {
    let count = 0;
    for (const [clientId, components] of this.#renderers) {
      if (addresses(view.to, clientId) && components.has(view.component)) count += 1;
    }
    return count;
  }

  /** A non-durable view none of whose addressees is still connected closes with `no_clients`. */
  clientDisconnected(clientId: string): void {
    this.#clients.delete(clientId);
    if (this.#renderers.delete(clientId)) this.#shownChanged();
    for (const view of [...this.#views.values()]) {
      if (view.durable || !addresses(view.to, clientId)) continue;
      const present = view.to === 'all' ? this.#clients.size > 0 : view.to.some((id) => this.#clients.has(id));
      if (!present) this.close(view, err('no_clients'), BACKGROUND_CONTEXT);
    }
  }

  async #message(viewId: string, message: JsonValue, context: Context): Promise<void> {
    const from = context.value(CLIENT_ID) ?? '';
    const view = this.#views.get(viewId);
    if (view === undefined || !addresses(view.to, from)) {
      throw new RemoteError('unknown_view', `No view "${viewId}" is open for this client`);
    }
    if (view.definition === undefined) {
      throw new RemoteError('unavailable', `View "${viewId}" was restored and its plugin has not taken it back yet`);
    }
    const parsed = view.definition.message.safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
      throw new RemoteError(
        'invalid_argument',
        `The message does not fit view "${view.component}"${where}: ${issue?.message ?? 'invalid'}`,
      );
    }
    for (const listener of [...view.listeners]) {
      try {
        listener(parsed.data, from);
      } catch (error) {
        this.#options.onListenerFailure?.(
          view.owner,
          `view "${view.component}" message listener threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  #shownChanged(): void {
    for (const view of [...this.#views.values()]) {
      const shownBy = this.shownBy(view);
      if (shownBy === view.shownBy) continue;
      view.shownBy = shownBy;
      for (const listener of [...view.shownListeners]) {
        try {
          listener(shownBy);
        } catch (error) {
          this.#options.onListenerFailure?.(
            view.owner,
            `view "${view.component}" shown listener threw: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    }
  }

  #newView(
    parts: Pick<OpenView, 'viewId' | 'owner' | 'component' | 'durable' | 'step' | 'to' | 'state' | 'definition'>,
  ): OpenView {
    let settle!: OpenView['settle'];
    const done = new Promise<Result<JsonValue, ViewEnd>>((resolve) => (settle = resolve));
    return {
      ...parts,
      version: ++this.#version,
      listeners: new Set(),
      shownListeners: new Set(),
      shownBy: 0,
      done,
      settle,
    };
  }

  #persist(): void {
    const durable = [...this.#views.values()].filter((view) => view.durable);
    this.#options.persist?.(
      durable.map(({ viewId, owner, component, state, to, step }) => ({
        viewId,
        owner,
        component,
        state,
        to,
        ...(step === undefined ? {} : { step }),
      })),
    );
  }
}

function recordOf(view: OpenView): ViewRecord {
  const { viewId, component, state, to, durable, version } = view;
  return { viewId, component, state, to, durable, version };
}

function checkedState(definition: ViewDefinition<JsonValue, JsonValue>, state: unknown): Result<JsonValue, string> {
  const parsed = definition.state.safeParse(state);
  if (!parsed.success) {
    return err(`state of view "${definition.component}" breaks its schema: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  const json = checkJson(parsed.data);
  if (json.isErr()) return err(`state of view "${definition.component}" is not JSON (${json.error.kind})`);
  return ok(parsed.data);
}
