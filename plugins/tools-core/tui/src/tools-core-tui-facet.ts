import type { Facet, ToolRenderer } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';
import { CORE_TOOL_NAMES, TOOLS_CORE_PLUGIN_ID, type CoreToolName } from '@pi/tools-core';
import { bashRenderer } from './bash-renderer';
import { fileChangeRenderer } from './diff-renderer';
import { fileCompletionSource } from './file-completion';
import { listingRenderer } from './listing-renderer';
import { readRenderer } from './read-renderer';

/** The manifest id this facet answers to. */
export const pluginId = TOOLS_CORE_PLUGIN_ID;

/** The renderer of each coding tool. */
export const CORE_TOOL_RENDERERS: Readonly<Record<CoreToolName, ToolRenderer>> = {
  [CORE_TOOL_NAMES.read]: readRenderer,
  [CORE_TOOL_NAMES.write]: fileChangeRenderer('write'),
  [CORE_TOOL_NAMES.edit]: fileChangeRenderer('edit'),
  [CORE_TOOL_NAMES.ls]: listingRenderer('ls'),
  [CORE_TOOL_NAMES.find]: listingRenderer('find'),
  [CORE_TOOL_NAMES.grep]: listingRenderer('grep'),
  [CORE_TOOL_NAMES.bash]: bashRenderer,
};

/**
 * The TUI facet of @pi/tools-core: how the coding tools' calls and durable results look in the transcript —
 * diffs for `edit`/`write`, collapsible output for `read`, `bash` and the listings, each result's state on its
 * first line (everything they show is in the results' details) — and `@` completion of the session's files.
 */
export const toolsCoreTuiFacet: Facet<'tui'> = (context) => {
  for (const [name, renderer] of Object.entries(CORE_TOOL_RENDERERS)) context.toolRenderers.add(name, renderer);
  context.completions.add(fileCompletionSource(context));
  context.slots.add('welcome', {
    render: (width) => wrapText('@name completes the path of a project file.', width),
  });
};
