import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { checkApiVersion, pluginMetadataSchema } from '@pi/plugin-api';
import {
  SESSION_DIRECTORY_PLUGIN_ID,
  SessionDirectory,
  SessionPicker,
  createSessionOptionsSchema,
  sessionPickerEntrySchema,
} from './index';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

describe('@pi/session-directory contract', () => {
  it('is named by its plugin id and carries plugin metadata this pi accepts', () => {
    expect(packageJson.name).toBe(SESSION_DIRECTORY_PLUGIN_ID);
    const metadata = pluginMetadataSchema.parse(packageJson.pi);
    expect(checkApiVersion(metadata.apiVersion).isOk()).toBe(true);
    expect(Object.keys(metadata.facets).sort()).toEqual(['coordinator', 'session', 'tui']);
  });

  it('keeps the upstream-only fields out of the downstream picker', () => {
    expect(SessionDirectory.id).toBe('session-directory');
    expect(SessionPicker.id).toBe('session-picker');
    const entry = { sessionId: 's-1', title: 't', status: 'idle', updatedAt: 'now', isCurrent: false };
    expect(sessionPickerEntrySchema.safeParse(entry).success).toBe(true);
    for (const field of ['ownerId', 'cwd', 'workspaceId']) {
      expect(sessionPickerEntrySchema.safeParse({ ...entry, [field]: 'x' }).success, field).toBe(false);
    }
  });

  it('refuses titles that are empty, too long or carry control characters, and ids that are not ids', () => {
    const ok = { title: 'fix the build', workspaceId: 'w-1' };
    expect(createSessionOptionsSchema.safeParse(ok).success).toBe(true);
    for (const title of ['', '   ', 'x'.repeat(201), 'a\u001b[2Jb', 'line\nbreak']) {
      expect(createSessionOptionsSchema.safeParse({ ...ok, title }).success, JSON.stringify(title)).toBe(false);
    }
    // No title at all is fine: the session's first prompt names it.
    expect(createSessionOptionsSchema.safeParse({ workspaceId: 'w-1' }).success).toBe(true);
    const [renamed, title] = (SessionPicker.exposure.methods.rename?.args ?? []) as [z.ZodType, z.ZodType];
    expect(renamed.safeParse('s-1').success && title.safeParse('the parser').success).toBe(true);
    for (const bad of ['', 'a\tb', 'x'.repeat(201)]) expect(title.safeParse(bad).success, bad).toBe(false);
    const remove = SessionDirectory.exposure.methods.remove!.args[0]!;
    expect(remove.safeParse('s-2026-12-01-abcd1234').success).toBe(true);
    for (const id of ['', '../etc', 'a b', 'x'.repeat(65)]) expect(remove.safeParse(id).success, id).toBe(false);
  });
});
