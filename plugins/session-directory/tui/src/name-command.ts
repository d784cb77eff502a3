import { followState, type CodingAgentTuiPluginContext, type Context } from '@pi/plugin-api';
import { SessionPicker, sessionTitleSchema, type SessionPickerEntry } from '@pi/session-directory';
import { failureText } from './failure-text';
import { NO_COORDINATOR } from './session-commands';
import { shortTitle, titleProblem } from './session-rows';

/** The command id (keybindings name it). */
export const NAME_COMMAND = 'sessions.name';

/** The longest title the footer shows whole. */
const FOOTER_TITLE = 60;

/**
 * `/name <title>` renames the current session (its title in the footer, `/sessions` and `pi sessions`); `/name`
 * alone says what it is called. A title someone chose is kept: the first prompt names only an unnamed session.
 * The footer shows the title, repainted whenever the directory changes it.
 */
export function registerNameCommand(context: CodingAgentTuiPluginContext): void {
  const { ui } = context;
  const picker = followState(
    context,
    SessionPicker,
    (service) => service.state,
    () => ui.requestRender(),
  );
  const current = (): SessionPickerEntry | undefined => picker.current()?.sessions.find((session) => session.isCurrent);

  context.slots.add('footer', {
    render() {
      const entry = current();
      if (entry === undefined) return [];
      return [ui.theme.fg('muted', `session: ${shortTitle(entry, FOOTER_TITLE)}`)];
    },
  });

  async function rename(typed: string, call: Context): Promise<void> {
    const checked = sessionTitleSchema.safeParse(typed);
    if (!checked.success) return ui.notify(titleProblem(typed), 'warning');
    let service;
    try {
      service = await context.use(SessionPicker);
    } catch (failure) {
      return ui.notify(`Sessions: ${failureText(failure)}`, 'error');
    }
    const { upstream, sessions } = service.state.value;
    if (upstream === 'absent') return ui.notify(NO_COORDINATOR, 'warning');
    const self = sessions.find((session) => session.isCurrent);
    if (self === undefined) return ui.notify('This session is not in the session list yet: try again', 'warning');
    try {
      const renamed = await service.rename(self.sessionId, checked.data, call);
      ui.notify(`This session is now "${shortTitle(renamed)}"`);
    } catch (failure) {
      ui.notify(`Cannot rename this session: ${failureText(failure)}`, 'error');
    }
  }

  context.commands.register({
    id: NAME_COMMAND,
    slash: 'name',
    description: 'Name this session (/name <title>); /name alone says what it is called',
    needsSession: true,
    async run(args, call) {
      if (args.trim() !== '') return rename(args, call);
      const state = picker.current();
      if (state?.upstream === 'absent') return ui.notify(NO_COORDINATOR, 'warning');
      const entry = current();
      if (entry === undefined) return ui.notify('This session is not in the session list yet', 'warning');
      ui.notify(`This session is "${shortTitle(entry)}" — /name <title> renames it`);
    },
  });
}
