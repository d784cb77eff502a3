import { describe, expect, it } from 'vitest';
import { createRemoteState } from './state';
import { ServiceRegistrationError, ServiceRegistry } from './service-registry';
import { createNotes, Notes, type NotesService } from './testing/notes-service';
import { defineLocalService, defineRemoteService } from './tokens';

interface Secrets {
  read(): string;
}
const Secrets = defineLocalService<Secrets>('secrets');
const secrets: Secrets = { read: () => 'hunter2' };

describe('ServiceRegistry', () => {
  it('returns the very implementation to a local use, with no proxy in between', () => {
    const registry = new ServiceRegistry();
    const notes = createNotes();
    registry.provide(Notes, notes);
    registry.provide(Secrets, secrets);
    expect(registry.use(Notes)).toBe(notes);
    expect(registry.use(Secrets)).toBe(secrets);
  });

  it('rejects a second provider of the same id, remote or local', () => {
    const registry = new ServiceRegistry();
    registry.provide(Notes, createNotes());
    expect(() => registry.provide(Notes, createNotes())).toThrow(ServiceRegistrationError);
    const LocalNotes = defineLocalService<NotesService>('notes');
    expect(() => registry.provide(LocalNotes, createNotes())).toThrow(/already provided/);
  });

  it('fails a use of a service nobody provides', () => {
    expect(() => new ServiceRegistry().use(Notes)).toThrow(/not provided/);
  });

  it('never exposes a local service to peers', () => {
    const registry = new ServiceRegistry();
    registry.provide(Secrets, secrets);
    registry.provide(Notes, createNotes());
    expect(registry.exposed('secrets')).toBeUndefined();
    expect(registry.exposedIds()).toEqual(['notes']);
    expect(registry.exposed('notes')?.exposure).toBe(Notes.exposure);
  });

  it('does not hand out a local service through a remote token of the same id, or the reverse', () => {
    const registry = new ServiceRegistry();
    registry.provide(Secrets, secrets);
    const Impostor = defineRemoteService<Record<string, never>>('secrets', { methods: {}, state: {}, events: {} });
    expect(() => registry.use(Impostor)).toThrow(ServiceRegistrationError);
    expect(registry.has(Impostor)).toBe(false);
    expect(registry.has(Secrets)).toBe(true);
  });

  it('ignores inherited names when looking up an exposed service', () => {
    const registry = new ServiceRegistry();
    expect(registry.exposed('__proto__')).toBeUndefined();
    expect(registry.exposed('toString')).toBeUndefined();
  });

  it('removes exactly its own registration when disposed, even after a re-provide', () => {
    const registry = new ServiceRegistry();
    const first = registry.provide(Notes, createNotes());
    registry.provide(Secrets, secrets);
    first();
    expect(registry.has(Notes)).toBe(false);
    expect(registry.has(Secrets)).toBe(true);
    const replacement = createNotes();
    registry.provide(Notes, replacement);
    first();
    expect(registry.use(Notes)).toBe(replacement);
  });
});

describe('ServiceRegistry checks an implementation against its exposure', () => {
  it('rejects an implementation that is not an object', () => {
    expect(() => new ServiceRegistry().provide(Notes, null as unknown as NotesService)).toThrow(/must be an object/);
  });

  it('rejects an implementation missing an exposed method', () => {
    const { count: _count, ...partial } = createNotes();
    expect(() => new ServiceRegistry().provide(Notes, partial as unknown as NotesService)).toThrow(
      /method "count" is missing/,
    );
  });

  it('rejects a state cell that is not an authoritative state', () => {
    const notes = { ...createNotes(), state: { value: { notes: [] }, revision: 0, subscribe: () => () => undefined } };
    expect(() => new ServiceRegistry().provide(Notes, notes)).toThrow(/state "state" must come from createRemoteState/);
  });

  it('rejects an event stream that is not an authoritative event source', () => {
    const notes = {
      ...createNotes(),
      events: createRemoteState({ type: 'cleared' }) as unknown as NotesService['events'],
    };
    expect(() => new ServiceRegistry().provide(Notes, notes)).toThrow(
      /events "events" must come from createRemoteEvents/,
    );
  });

  it('registers nothing when the check fails', () => {
    const registry = new ServiceRegistry();
    const { add: _add, ...partial } = createNotes();
    expect(() => registry.provide(Notes, partial as unknown as NotesService)).toThrow();
    expect(registry.has(Notes)).toBe(false);
  });

  it('accepts a local service of any shape, since no peer reaches it', () => {
    const Anything = defineLocalService<{ handle: Map<string, () => void> }>('anything');
    expect(() => new ServiceRegistry().provide(Anything, { handle: new Map() })).not.toThrow();
  });
});
