import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ConfirmInteraction,
  MAX_DETAIL_LINES,
  MAX_SUMMARY_LENGTH,
  PERMISSIONS_PLUGIN_ID,
  permissionDeniedDetailsSchema,
  type ConfirmRequest,
} from './index';

const request: ConfirmRequest = {
  tool: 'bash',
  summary: 'rm -rf build',
  details: [],
  sessionGrant: 'command',
  timeoutMs: 300_000,
};

describe('the permissions contract', () => {
  it('is a plugin whose package metadata names its session facet and its TUI facet', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.name).toBe(PERMISSIONS_PLUGIN_ID);
    expect(pkg.pi).toEqual({
      apiVersion: '2.0',
      description: expect.any(String),
      facets: { session: '@pi/permissions-session', tui: '@pi/permissions-tui' },
    });
  });

  it('is the interaction id presentations register their confirm handler for', () => {
    expect(ConfirmInteraction.id).toBe('tool-confirm');
  });

  it('accepts exactly the three decisions, with nothing beside them', () => {
    const parse = (value: unknown) => ConfirmInteraction.response.safeParse(value).success;
    expect(parse({ decision: 'allow_once' })).toBe(true);
    expect(parse({ decision: 'allow_session' })).toBe(true);
    expect(parse({ decision: 'deny' })).toBe(true);
    expect(parse({ decision: 'allow' })).toBe(false);
    expect(parse({ decision: 'allow_once', scope: 'everything' })).toBe(false);
    expect(parse({})).toBe(false);
    expect(parse('allow_once')).toBe(false);
  });

  it('bounds a request so a huge command cannot make a frame the connection refuses', () => {
    const parse = (patch: Partial<ConfirmRequest>) =>
      ConfirmInteraction.request.safeParse({ ...request, ...patch }).success;
    expect(parse({})).toBe(true);
    expect(parse({ summary: 'x'.repeat(MAX_SUMMARY_LENGTH) })).toBe(true);
    expect(parse({ summary: 'x'.repeat(MAX_SUMMARY_LENGTH + 1) })).toBe(false);
    expect(parse({ details: Array.from({ length: MAX_DETAIL_LINES + 1 }, () => 'x') })).toBe(false);
    expect(parse({ sessionGrant: 'everything' as never })).toBe(false);
    expect(parse({ timeoutMs: 0 })).toBe(false);
  });

  it('marks a denied call’s details so renderers can tell a denial from the tool’s own failure', () => {
    expect(
      permissionDeniedDetailsSchema.safeParse({ permission: 'denied', tool: 'bash', code: 'timeout' }).success,
    ).toBe(true);
    expect(permissionDeniedDetailsSchema.safeParse({ exitCode: 1 }).success).toBe(false);
  });
});
