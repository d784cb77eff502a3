import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { checkJson } from '@pi/json';
import { describeExposure, describeHost, toJsonSchema } from './describe';
import { hostDescriptionSchema } from './description';
import { remote, type ObjectExposure } from './exposure';
import { InteractionBroker } from './interaction-broker';
import { ServiceRegistry } from './service-registry';
import { Notes, createNotes } from './testing/notes-service';
import { defineInteraction, defineLocalService } from './tokens';

const Confirm = defineInteraction<{ command: string }, { allow: boolean }>('confirm', {
  request: z.object({ command: z.string() }),
  response: z.object({ allow: z.boolean() }),
});

describe('describing exposures', () => {
  it('gives argument, result, state and event schemas as JSON Schema, members in declaration order', () => {
    const described = describeExposure(Notes.exposure);
    expect(Object.keys(described.methods)).toEqual(['add', 'count', 'block', 'export']);
    expect(described.methods['add']).toEqual({
      args: [{ type: 'string', minLength: 1 }],
      result: {
        kind: 'value',
        schema: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
    });
    expect(described.state['state']).toMatchObject({ type: 'object', required: ['notes'] });
    expect(described.events['events']).toHaveProperty('oneOf');
  });

  it('describes a void result as void and a remote result as a reference with its own exposure', () => {
    const described = describeExposure(Notes.exposure);
    expect(described.methods['export']?.result).toEqual({
      kind: 'remote',
      exposure: {
        methods: { finish: { args: [], result: { kind: 'void' } } },
        state: { progress: expect.objectContaining({ type: 'object' }) },
        events: {},
      },
    });
  });

  it('stops at a reference that returns its own kind again', () => {
    interface Node {
      next(context: unknown): Promise<Node>;
    }
    const node = { methods: {}, state: {}, events: {} } as unknown as { methods: Record<string, unknown> };
    node.methods['next'] = { args: [], result: remote(node as unknown as ObjectExposure<Node>) };
    const described = describeExposure(node as never);
    expect(described.methods['next']?.result).toEqual({ kind: 'remote', exposure: null });
  });

  it('describes what JSON Schema cannot express as accepting anything, and never fails', () => {
    expect(toJsonSchema(z.date(), 'output')).toEqual({});
    expect(
      toJsonSchema(
        z.custom<string>(() => true),
        'input',
      ),
    ).toEqual({});
  });

  it('describes arguments as callers may send them and results as they arrive', () => {
    const object = z.object({ a: z.string() });
    expect(toJsonSchema(object, 'input')).not.toHaveProperty('additionalProperties');
    expect(toJsonSchema(object, 'output')).toHaveProperty('additionalProperties', false);
  });
});

describe('describing a host', () => {
  it('lists its remote services by id, never a local one, and the interactions it declared', () => {
    const registry = new ServiceRegistry();
    registry.provide(Notes, createNotes());
    registry.provide(defineLocalService<{ secret(): string }>('vault'), { secret: () => 'x' });
    const broker = new InteractionBroker();
    broker.declare(Confirm);
    const description = describeHost(registry, registry.exposedIds(), broker.interactions());
    expect(description.services.map((service) => service.id)).toEqual(['notes']);
    expect(description.interactions).toEqual([
      {
        id: 'confirm',
        request: expect.objectContaining({ required: ['command'] }),
        response: expect.objectContaining({ required: ['allow'] }),
      },
    ]);
    expect(checkJson(description).isOk()).toBe(true);
    expect(hostDescriptionSchema.parse(description)).toEqual(description);
  });

  it('describes only the services it was asked for (the ones its router serves)', () => {
    const registry = new ServiceRegistry();
    registry.provide(Notes, createNotes());
    expect(describeHost(registry, [], []).services).toEqual([]);
    expect(describeHost(registry, ['notes', 'missing'], []).services.map((service) => service.id)).toEqual(['notes']);
  });
});

describe('interactions a broker knows', () => {
  it('a declaration is listed until its remover runs; the remover takes back exactly it', () => {
    const broker = new InteractionBroker();
    const first = broker.declare(Confirm);
    const second = broker.declare(Confirm);
    expect(broker.interactions().map((interaction) => interaction.id)).toEqual(['confirm']);
    first();
    expect(broker.interactions()).toHaveLength(1);
    second();
    expect(broker.interactions()).toEqual([]);
  });

  it('an interaction requested once is known from then on, even when nobody could answer it', async () => {
    const broker = new InteractionBroker();
    await expect(broker.request(Confirm, { command: 'ls' }, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'no_handler',
    });
    expect(broker.interactions()).toEqual([Confirm]);
  });
});
