/**
 * The exported page's only style sheet, inline: system fonts, light and dark by the reader's preference, text that
 * wraps as it was written (answers are shown as the model wrote them, not rendered as Markdown).
 */
export const SESSION_HTML_STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --user: #ddf4ff;
  --tool: #f6f8fa; --error: #cf222e; --accent: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --user: #0c2d4a; --tool: #161b22; --error: #f85149;
    --accent: #4493f8; }
}
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 .25rem; }
.meta, .who, summary { color: var(--muted); font-size: .85rem; }
section { margin: .75rem 0; padding: .5rem .75rem; border-radius: 6px; }
section.user { background: var(--user); }
section.tool-result, section.shell, section.compaction { background: var(--tool); }
section.notice { color: var(--muted); font-style: italic; }
.who { margin-bottom: .25rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; font: 13px/1.4 ui-monospace, monospace; }
pre.command { color: var(--accent); }
.tool-call { margin-top: .5rem; border-left: 3px solid var(--accent); padding-left: .5rem; }
.tool { font-weight: 600; font-family: ui-monospace, monospace; }
.error, section.error, .tool-result.error summary { color: var(--error); }
details > summary { cursor: pointer; }
`;
