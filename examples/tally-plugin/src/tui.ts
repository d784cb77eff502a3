import type { Facet } from '@pi/plugin-api';
import { Tally } from './tally.js';

/** The TUI facet: `/tally [amount]` adds to the session's tally and shows the new count. */
const tallyTui: Facet<'tui'> = (context) => {
  context.commands.register({
    id: 'tally.add',
    description: 'Add to the tally of this session (1 when no amount is given)',
    slash: 'tally',
    needsSession: true,
    arguments: { hint: '[amount]' },
    async run(args, callContext) {
      const amount = args.trim() === '' ? 1 : Number(args.trim());
      if (!Number.isInteger(amount) || amount < 1) return context.ui.notify(`Not an amount: ${args}`, 'warning');
      const tally = await context.use(Tally); // a typed proxy, shared, released when the plugin stops
      context.ui.notify(`tally: ${await tally.add(amount, callContext)}`);
    },
  });
};

export default tallyTui;
