import { hostname, userInfo } from 'node:os';
import { BACKGROUND_CONTEXT, Presence, type PresenceEntry, type PresenceService, type TuiTheme } from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import type { SlotRegistry } from './slot-registry';

export interface PresenceStatusParts {
  readonly client: RpcClient;
  readonly slots: SlotRegistry;
  readonly theme: TuiTheme;
  /** How this terminal names itself to the others (default `user@host`). */
  readonly name?: string;
  readonly render: () => void;
}

/** The most other clients the footer names; the rest are counted. */
const NAMED = 3;

/**
 * Presence in the TUI: on every connection (a reconnect is a new attachment) this terminal announces itself as a
 * `tui` with its name, and the footer says who else is attached ("2 others here: bob@desk (cli), …"). Nothing shows
 * while this TUI is alone, or when the session serves no presence (an older one).
 */
export function registerPresence(parts: PresenceStatusParts): () => void {
  const name = parts.name ?? defaultName();
  let presence: PresenceService | undefined;
  let closed = false;
  let stopWatching = (): void => undefined;
  let release = (): void => undefined;
  const announce = () => {
    if (presence !== undefined && parts.client.connection.value.status === 'connected')
      presence.announce('tui', name, BACKGROUND_CONTEXT).catch(() => undefined);
  };
  const stopConnection = parts.client.connection.subscribe((state) => {
    if (state.status === 'connected') announce();
  });
  parts.client
    .acquire(Presence)
    .then((lease) => {
      if (closed) return void lease.release();
      presence = lease.service;
      release = () => lease.release();
      stopWatching = lease.service.attached.subscribe(() => parts.render());
      announce();
    })
    .catch(() => undefined);

  const removeSlot = parts.slots.add('host', 'footer', {
    render: () => {
      const self = parts.client.host?.clientId;
      const others = (presence?.attached.value ?? []).filter((entry) => entry.clientId !== self);
      return others.length === 0 ? [] : [parts.theme.fg('muted', othersLine(others))];
    },
  });

  return () => {
    closed = true;
    stopConnection();
    stopWatching();
    release();
    removeSlot();
  };
}

/** "1 other here: bob@desk (cli)", "5 others here: a (tui), b (tui), c (cli) and 2 more". */
export function othersLine(others: readonly PresenceEntry[]): string {
  const names = others
    .slice(0, NAMED)
    .map((entry) => (entry.name === '' ? entry.kind : `${entry.name} (${entry.kind})`));
  const more = others.length - names.length;
  const listed = more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
  return `${others.length} ${others.length === 1 ? 'other' : 'others'} here: ${listed}`;
}

function defaultName(): string {
  try {
    return `${userInfo().username}@${hostname()}`.slice(0, 100);
  } catch {
    return hostname().slice(0, 100);
  }
}
