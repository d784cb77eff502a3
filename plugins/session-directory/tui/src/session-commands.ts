import type { CodingAgentTuiPluginContext, Context } from '@pi/plugin-api';
import {
  MAX_SESSION_TITLE,
  SessionPicker,
  type SessionPickerEntry,
  type SessionPickerService,
} from '@pi/session-directory';
import { failureText } from './failure-text';
import { matchSessions } from './session-query';
import { printable, sessionRows, shortTitle, titleProblem, type SessionRow } from './session-rows';

/** The command ids (keybindings name them). */
export const SESSION_COMMANDS = {
  pick: 'sessions.pick',
  create: 'sessions.new',
  clear: 'sessions.clear',
  /** `<sessionId> <title>`: registers a session file this session wrote (a fork) and switches to it. For other
   *  facets (chat's /fork), run by id; no slash. */
  adopt: 'sessions.adopt',
} as const;

export const NO_COORDINATOR =
  'This session runs without a coordinator: start pi with `pi-tui --start` to manage sessions';
export const STALE_LIST = 'The coordinator is unreachable: the list may be out of date';
export const NEW_SESSION_ROW = '+ New session…';
export const REMOVE_SESSION_ROW = '− Remove a session…';

/**
 * `/sessions` and `/new` over the session's SessionPicker. Every outcome is a notice; nothing is thrown at the host.
 * Dialogs close and calls cancel when the command's context aborts. `now` dates the rows (`5m ago`).
 */
export function registerSessionCommands(context: CodingAgentTuiPluginContext, now: () => number = Date.now): void {
  const { ui } = context;
  const dialog = (call: Context) => ({ signal: call.abortSignal });

  /** Runs `body` with the picker; a session that serves none (or a lost connection) is one notice. */
  const withPicker = async (body: (picker: SessionPickerService) => Promise<void>) => {
    let picker: SessionPickerService;
    try {
      picker = await context.use(SessionPicker);
    } catch (failure) {
      return ui.notify(`Sessions: ${failureText(failure)}`, 'error');
    }
    await body(picker);
  };

  async function choose(title: string, rows: readonly SessionRow[], call: Context) {
    const choice = await ui.select(
      title,
      rows.map((row) => row.text),
      dialog(call),
    );
    return rows.find((row) => row.text === choice)?.entry;
  }

  async function switchTo(picker: SessionPickerService, entry: SessionPickerEntry, call: Context) {
    const title = shortTitle(entry);
    if (entry.isCurrent) return ui.notify(`You are in "${title}" already`);
    const running = entry.status === 'active' || entry.status === 'idle';
    ui.notify(running ? `Switching to "${title}"…` : `Starting "${title}"…`);
    try {
      await picker.resume(entry.sessionId, call);
      // Resolves once this TUI is handed to the other session: this facet is stopping by then, so nothing follows.
      await context.session.switchTo(entry.sessionId);
    } catch (failure) {
      ui.notify(`Cannot switch to "${title}": ${failureText(failure)}`, 'error');
    }
  }

  async function remove(picker: SessionPickerService, entry: SessionPickerEntry, call: Context) {
    const title = shortTitle(entry);
    if (entry.isCurrent) {
      return ui.notify(`"${title}" is the session you are in: switch to another one to remove it`, 'warning');
    }
    const message = `"${title}" (${entry.sessionId}) stops if it runs and leaves this list.\nIts session file stays on disk.`;
    if (!(await ui.confirm('Remove this session?', message, dialog(call)))) return;
    try {
      await picker.remove(entry.sessionId, call);
      ui.notify(`Removed "${title}"`);
    } catch (failure) {
      ui.notify(`Cannot remove "${title}": ${failureText(failure)}`, 'error');
    }
  }

  /** `given` undefined: no title and no question (the first prompt names it); '' asks for one. */
  async function create(picker: SessionPickerService, given: string | undefined, call: Context, sessionId?: string) {
    const typed =
      given === undefined || given.trim() !== ''
        ? (given ?? '')
        : await ui.input('New session', 'its title (Enter alone: its first prompt names it)', dialog(call));
    if (typed === undefined) return;
    // No title typed: the session's first prompt names it.
    const title = printable(typed).trim();
    if (title.length > MAX_SESSION_TITLE) return ui.notify(titleProblem(title), 'warning');
    const shown =
      title === ''
        ? 'a new session'
        : `"${shortTitle({ sessionId: '', title, status: 'starting', updatedAt: '', isCurrent: false })}"`;
    ui.notify(`Creating ${shown}…`);
    let created: SessionPickerEntry;
    try {
      const titled = title === '' ? {} : { title };
      created = await picker.create(sessionId === undefined ? titled : { ...titled, sessionId }, call);
    } catch (failure) {
      return ui.notify(`Cannot create ${shown}: ${failureText(failure)}`, 'error');
    }
    try {
      await context.session.switchTo(created.sessionId);
    } catch (failure) {
      ui.notify(`Created ${shown}, but cannot switch to it: ${failureText(failure)}`, 'error');
    }
  }

  /** The one session a query names; several matches are offered in a select, none is a notice. */
  async function named(picker: SessionPickerService, query: string, call: Context) {
    const matches = matchSessions(picker.state.value.sessions, query);
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) return choose(`Sessions matching "${printable(query)}"`, sessionRows(matches, now()), call);
    ui.notify(`No session matches "${printable(query)}" — /sessions lists them`, 'warning');
    return undefined;
  }

  async function pick(picker: SessionPickerService, call: Context) {
    const { sessions, upstream } = picker.state.value;
    if (upstream === 'disconnected') ui.notify(STALE_LIST, 'warning');
    const rows = sessionRows(sessions, now());
    const removable = rows.filter((row) => !row.entry.isCurrent);
    const choices = [
      ...rows.map((row) => row.text),
      NEW_SESSION_ROW,
      ...(removable.length > 0 ? [REMOVE_SESSION_ROW] : []),
    ];
    const title =
      upstream === 'disconnected' ? 'Sessions · stale, the coordinator is unreachable' : `Sessions (${rows.length})`;
    const choice = await ui.select(title, choices, dialog(call));
    if (choice === NEW_SESSION_ROW) return create(picker, '', call);
    if (choice === REMOVE_SESSION_ROW) {
      const target = await choose('Remove which session?', removable, call);
      return target === undefined ? undefined : remove(picker, target, call);
    }
    const chosen = rows.find((row) => row.text === choice);
    if (chosen !== undefined) await switchTo(picker, chosen.entry, call);
  }

  context.commands.register({
    id: SESSION_COMMANDS.pick,
    slash: 'sessions',
    description: "Switch to another of this project's sessions; /sessions <name> switches, /sessions rm <name> removes",
    needsSession: true,
    run: (args, call) =>
      withPicker(async (picker) => {
        if (picker.state.value.upstream === 'absent') return ui.notify(NO_COORDINATOR, 'warning');
        const [verb = '', ...rest] = args.trim().split(/\s+/);
        if (verb === '') return pick(picker, call);
        if (verb !== 'rm' && verb !== 'remove') {
          const target = await named(picker, args, call);
          return target === undefined ? undefined : switchTo(picker, target, call);
        }
        const query = rest.join(' ');
        const removable = sessionRows(picker.state.value.sessions, now()).filter((row) => !row.entry.isCurrent);
        const target =
          query === '' ? await choose('Remove which session?', removable, call) : await named(picker, query, call);
        if (target !== undefined) await remove(picker, target, call);
      }),
  });

  context.commands.register({
    id: SESSION_COMMANDS.adopt,
    description: 'Register a session file this session wrote (a fork) with the coordinator and switch to it',
    needsSession: true,
    run: (args, call) =>
      withPicker(async (picker) => {
        if (picker.state.value.upstream === 'absent') return ui.notify(NO_COORDINATOR, 'warning');
        const [sessionId = '', ...title] = args.trim().split(/\s+/);
        if (sessionId === '') return ui.notify('Which session file? (a session id)', 'warning');
        await create(picker, title.join(' ') || sessionId, call, sessionId);
      }),
  });

  context.commands.register({
    id: SESSION_COMMANDS.create,
    slash: 'new',
    description: 'Start a new session in this project and switch to it; /new <title> names it',
    needsSession: true,
    run: (args, call) =>
      withPicker(async (picker) => {
        if (picker.state.value.upstream === 'absent') return ui.notify(NO_COORDINATOR, 'warning');
        await create(picker, args, call);
      }),
  });

  // As in Claude Code and opencode: an empty conversation at once. The one left keeps everything, in /sessions.
  context.commands.register({
    id: SESSION_COMMANDS.clear,
    slash: 'clear',
    description: 'Start over in a new, empty session of this project (the current one stays in /sessions)',
    needsSession: true,
    run: (_args, call) =>
      withPicker(async (picker) => {
        if (picker.state.value.upstream === 'absent') return ui.notify(NO_COORDINATOR, 'warning');
        await create(picker, undefined, call);
      }),
  });
}
