import type { z } from 'zod';
import type { Result } from 'neverthrow';
import type { Context } from '@pi/context';
import type { ViewCloseReason } from './view-contract';

/**
 * A view component's contract, declared once where both facets can import it (a plugin's contract package): its
 * name, the schema of its state (session → clients) and of the messages clients send back. The session checks
 * both at the boundary; the TUI renders state of this type.
 */
export interface ViewDefinition<State, Message> {
  readonly component: string;
  readonly state: z.ZodType<State>;
  readonly message: z.ZodType<Message>;
}

const COMPONENT_PATTERN = /^[a-z@][a-z0-9@/._-]{0,199}$/;

export function defineView<State, Message>(
  component: string,
  schemas: { readonly state: z.ZodType<State>; readonly message: z.ZodType<Message> },
): ViewDefinition<State, Message> {
  if (!COMPONENT_PATTERN.test(component)) {
    throw new TypeError(`Invalid view component "${component}": use lower-case letters, digits and @/._-`);
  }
  return Object.freeze({ component, state: schemas.state, message: schemas.message });
}

/** The component's state and message types, from its definition. */
export type ViewState<D> = D extends ViewDefinition<infer S, infer _> ? S : never;
export type ViewMessage<D> = D extends ViewDefinition<infer _, infer M> ? M : never;

export interface ViewOptions {
  /**
   * Who sees it: `originator` (the client whose call `context` carries; every client when it carries none, as a
   * run's tool call does), `all` (the default), or these client ids.
   */
  readonly to?: 'originator' | 'all' | readonly string[];
  /** Survives a session restart (written beside the session file) and stays open when its last addressee leaves. */
  readonly durable?: boolean;
  /**
   * A stable id within the plugin: opening a view with an id already open (or restored by a restarted session)
   * returns that view, its state kept, so a parked step finds its view again. Random otherwise.
   */
  readonly id?: string;
  /** The call that opens it: says who `originator` is. */
  readonly context?: Context;
}

/** How a view ended without a result: its last addressee left, or its plugin or session stopped. */
export type ViewEnd = Exclude<ViewCloseReason, 'closed'>;

/** An open view, as its plugin holds it. Every registration is owned by the plugin's scope. */
export interface View<State, Message, Result_ = unknown> {
  readonly id: string;
  /** Assigning syncs the new state to the view's audience (checked against the state schema: a bad one throws). */
  state: State;
  /** Messages clients send, already checked against the message schema; `from` is the sender's client id. */
  on(listener: (message: Message, from: string) => void): () => void;
  /** Resolves once, when the view closes: `ok(result)` from `close(result)`, or why it ended. */
  readonly done: Promise<Result<Result_, ViewEnd>>;
  readonly closed: boolean;
  /** How many connected clients it is addressed to show it (they declared a component for it). */
  readonly shownBy: number;
  /** Called with `shownBy` whenever it changes (a client attaching, declaring its components, leaving). */
  onShown(listener: (shownBy: number) => void): () => void;
  /** Closes it for every client; `done` resolves with `result`. Closing a closed view does nothing. */
  close(result: Result_): void;
}

/** Opens a view of a component for an audience (issue 22; the one session → client UI primitive). */
export type OpenView = <State, Message, Result_ = unknown>(
  definition: ViewDefinition<State, Message>,
  state: State,
  options?: ViewOptions,
) => View<State, Message, Result_>;
