import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_TIMEOUT_MS } from '@pi/remote';
import { parsePermissionConfig } from './permission-config';
import { DEFAULT_UNATTENDED_TIMEOUT_MS } from '@pi/plugin-api';

const unattendedTimeoutMs = DEFAULT_UNATTENDED_TIMEOUT_MS;

describe('permissions config', () => {
  it('asks, with the broker’s five-minute timeout, when nothing is configured', () => {
    const defaults = { mode: 'ask', timeoutMs: DEFAULT_INTERACTION_TIMEOUT_MS, unattendedTimeoutMs };
    expect(parsePermissionConfig(null)).toEqual(defaults);
    expect(parsePermissionConfig({})).toEqual(defaults);
    expect(unattendedTimeoutMs).toBe(30_000);
  });

  it.each(['ask', 'allow-all', 'deny-all'] as const)('takes the mode %s', (mode) => {
    expect(parsePermissionConfig({ mode, timeoutMs: 50 })).toEqual({ mode, timeoutMs: 50, unattendedTimeoutMs });
    expect(parsePermissionConfig({ mode, unattendedTimeoutMs: 20 })).toMatchObject({ unattendedTimeoutMs: 20 });
  });

  it.each([
    [{ mode: 'deny_all' }, /mode/],
    [{ mode: 'ASK' }, /mode/],
    [{ mode: null }, /mode/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ timeoutMs: 1.5 }, /timeoutMs/],
    [{ timeoutMs: 2 ** 31 }, /timeoutMs/],
    [{ timeoutMs: '5m' }, /timeoutMs/],
    [{ unattendedTimeoutMs: 0 }, /unattendedTimeoutMs/],
    [{ mode: 'ask', tools: ['bash'] }, /tools/],
    ['ask', /config must be/],
    [[], /config must be/],
  ])('refuses %j with a setup error that says what is expected', (raw, naming) => {
    expect(() => parsePermissionConfig(raw)).toThrow(naming);
    expect(() => parsePermissionConfig(raw)).toThrow(/@pi\/permissions config must be \{ "mode"\?/);
  });
});
