import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  RemoteError,
  Views,
  ViewReplica,
  type JsonValue,
  type SlotName,
  type TuiTheme,
  type ViewRecord,
  type ViewWidget,
  type ViewsService,
} from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import type { SlotRegistry } from './slot-registry';
import type { ViewComponentRegistry } from './view-component-registry';

/** A view shown over the transcript, as the overlay layer sees it. */
export interface ViewOverlay {
  readonly viewId: string;
  readonly owner: string;
  readonly widget: ViewWidget;
  /** Hides it in this terminal (Esc), when its component allows it. */
  readonly dismiss: (() => void) | undefined;
}

interface Shown {
  readonly component: string;
  /** The contribution it was made with: a newer one re-creates it. */
  readonly made: unknown;
  readonly widget: ViewWidget;
  readonly placement: SlotName;
  readonly owner: string;
  readonly dismissible: boolean;
  readonly removeFromSlot: () => void;
}

export interface ViewPresenterOptions {
  readonly client: RpcClient;
  readonly components: ViewComponentRegistry;
  readonly slots: SlotRegistry;
  readonly theme: TuiTheme;
  readonly changed: () => void;
  readonly fail: (owner: string, message: string) => void;
}

/**
 * Shows the session's views in this terminal: it watches the `views` service (snapshot and deltas, rebuilt by
 * itself after a reconnect), makes one widget per open view with the component a facet contributed, and puts it
 * in the component's slot or over the transcript. A view whose component this terminal lacks shows a placeholder.
 */
export class ViewPresenter {
  readonly #options: ViewPresenterOptions;
  readonly #replica = new ViewReplica();
  readonly #shown = new Map<string, Shown>();
  readonly #dismissed = new Set<string>();
  readonly #stops: Array<() => void> = [];
  #service: ViewsService | undefined;
  #stopped = false;
  #watching: Promise<void> | undefined;
  /** The last declaration sent, answered or not. */
  #declared: Promise<void> = Promise.resolve();

  constructor(options: ViewPresenterOptions) {
    this.#options = options;
    this.#stops.push(
      options.components.onChange(() => {
        this.#sync();
        this.#declare();
      }),
    );
    this.#stops.push(
      options.client.connection.subscribe((state) => {
        if (state.status !== 'connected') return;
        // A new connection has a new client id: the session forgot what the last one declared.
        if (this.#service === undefined) this.#watching ??= this.#watch().finally(() => (this.#watching = undefined));
        else this.#declare();
      }),
    );
  }

  /**
   * Resolves once the session knows what this terminal shows (its answer to the latest declaration), so a view
   * opened after the host started counts this terminal among those showing it. Never rejects.
   */
  async ready(): Promise<void> {
    await this.#watching;
    await this.#declared;
  }

  /** The views shown over the transcript, oldest first (the newest takes the keys). */
  overlays(): readonly ViewOverlay[] {
    const overlays: ViewOverlay[] = [];
    for (const [viewId, shown] of this.#shown) {
      if (shown.placement !== 'overlay' || this.#dismissed.has(viewId)) continue;
      const dismiss = shown.dismissible ? () => this.#dismiss(viewId) : undefined;
      overlays.push({ viewId, owner: shown.owner, widget: shown.widget, dismiss });
    }
    return overlays;
  }

  stop(): void {
    this.#stopped = true;
    for (const stop of this.#stops.splice(0)) stop();
    for (const viewId of [...this.#shown.keys()]) this.#hide(viewId);
  }

  async #watch(): Promise<void> {
    let lease;
    try {
      lease = await this.#options.client.acquire(Views);
    } catch (error) {
      // A host without views (a test stand-in, an older session) shows none; anything else is worth a line.
      const absent = error instanceof RemoteError && error.code === 'unknown_service';
      if (!this.#stopped && !absent)
        this.#options.fail('views', `cannot watch the session's views: ${messageOf(error)}`);
      return;
    }
    if (this.#stopped) return lease.release();
    this.#service = lease.service;
    this.#declare();
    this.#stops.push(() => lease.release());
    this.#stops.push(
      lease.service.open.subscribe((records) => {
        this.#replica.applyOpen(records);
        this.#sync();
      }),
    );
    this.#stops.push(
      lease.service.deltas.subscribe((delta) => {
        this.#replica.applyDelta(delta);
        this.#sync();
      }),
    );
  }

  /** Tells the session which components this terminal renders (what makes a view "shown" for its plugin). */
  #declare(): void {
    const service = this.#service;
    if (service === undefined || this.#stopped) return;
    this.#declared = service.show(this.#options.components.names(), BACKGROUND_CONTEXT).catch((error: unknown) => {
      if (!this.#stopped && this.#options.client.connection.value.status === 'connected') {
        this.#options.fail('views', `cannot tell the session which views this terminal shows: ${messageOf(error)}`);
      }
    });
  }

  #sync(): void {
    if (this.#stopped) return;
    const open = new Map(this.#replica.list().map((record) => [record.viewId, record]));
    for (const [viewId, shown] of this.#shown) {
      const contribution = this.#options.components.get(shown.component);
      if (!open.has(viewId) || (contribution ?? null) !== shown.made) this.#hide(viewId);
    }
    for (const viewId of this.#dismissed) if (!open.has(viewId)) this.#dismissed.delete(viewId);
    for (const record of open.values()) if (!this.#shown.has(record.viewId)) this.#show(record);
    this.#options.changed();
  }

  #show(record: ViewRecord): void {
    const { components, slots, theme } = this.#options;
    const contribution = components.get(record.component);
    const viewId = record.viewId;
    if (contribution === undefined) {
      const placeholder: ViewWidget = {
        render: () => [theme.fg('dim', `[view ${record.component}: this terminal has no component to show it]`)],
      };
      const removeFromSlot = slots.add('views', 'editor.above', placeholder);
      this.#shown.set(viewId, {
        component: record.component,
        made: null,
        widget: placeholder,
        placement: 'editor.above',
        owner: 'views',
        dismissible: false,
        removeFromSlot,
      });
      return;
    }
    const { owner, component } = contribution;
    const replica = this.#replica;
    const instance = {
      viewId,
      get state(): JsonValue {
        return (replica.get(viewId) ?? record).state;
      },
      send: async (message: JsonValue) => {
        const service = this.#service;
        if (service === undefined) throw new Error('Not connected to the session');
        await service.message(viewId, message, BACKGROUND_CONTEXT);
      },
    };
    let widget: ViewWidget;
    try {
      widget = component.create(instance, theme);
    } catch (error) {
      this.#options.fail(owner, `view component "${record.component}" threw: ${messageOf(error)}`);
      widget = { render: () => [theme.fg('error', `[view ${record.component} failed]`)] };
    }
    const placement = component.placement;
    const removeFromSlot = placement === 'overlay' ? () => undefined : slots.add(owner, placement, widget);
    this.#shown.set(viewId, {
      component: record.component,
      made: contribution,
      widget,
      placement,
      owner,
      dismissible: component.dismissible === true,
      removeFromSlot,
    });
  }

  #hide(viewId: string): void {
    const shown = this.#shown.get(viewId);
    if (shown === undefined) return;
    this.#shown.delete(viewId);
    shown.removeFromSlot();
    try {
      shown.widget.dispose?.();
    } catch (error) {
      this.#options.fail(shown.owner, `view widget dispose threw: ${messageOf(error)}`);
    }
  }

  #dismiss(viewId: string): void {
    this.#dismissed.add(viewId);
    this.#options.changed();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
