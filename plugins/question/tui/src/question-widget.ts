import type { TuiKey, TuiTheme, ViewInstance, ViewWidget } from '@pi/plugin-api';
import { MAX_CUSTOM_ANSWER_LENGTH, type QuestionRequest, type QuestionResponse } from '@pi/question';
import { printable } from './printable';
import { TYPE_SOMETHING, questionChoices } from './question-choices';

const isTyped = (key: TuiKey) => key.text !== undefined && !key.ctrl && !key.alt;
const ROWS = 10;

/**
 * The question over the transcript: the numbered options plus "Type something…" (typing filters, ↑/↓ move, Enter
 * picks, Esc answers cancelled); "Type something…" turns it into a line for an answer of one's own (Enter sends
 * it, an empty one or Esc answers cancelled). It draws only from the view's state; once answered it shows nothing
 * until the session closes the view.
 */
export function questionWidget(view: ViewInstance<QuestionRequest, QuestionResponse>, theme: TuiTheme): ViewWidget {
  let mode: 'choose' | 'type' = 'choose';
  let filter = '';
  let index = 0;
  let typed = '';
  let typedTitle = 'Your answer';
  let answered = false;

  const choices = () => questionChoices(view.state);
  const visible = () => choices().filter((choice) => choice.toLowerCase().includes(filter.toLowerCase()));
  const answer = (response: QuestionResponse) => {
    answered = true;
    // A refusal (the view closed meanwhile) leaves nothing to do: the session decided without this answer.
    view.send(response).catch(() => undefined);
  };

  function choose(key: TuiKey): void {
    const shown = visible();
    if (key.name === 'escape') return answer({ outcome: 'cancelled' });
    if (key.name === 'enter') {
      const choice = shown[Math.min(index, shown.length - 1)];
      if (choice === undefined) return;
      const picked = choices().indexOf(choice);
      if (picked < view.state.options.length) return answer({ outcome: 'selected', index: picked });
      mode = 'type';
      return;
    }
    if (key.name === 'up') index = Math.max(0, index - 1);
    else if (key.name === 'down') index = Math.min(Math.max(0, shown.length - 1), index + 1);
    else if (key.name === 'backspace') filter = filter.slice(0, -1);
    else if (isTyped(key)) {
      filter += key.text;
      index = 0;
    }
  }

  function type(key: TuiKey): void {
    if (key.name === 'escape') return answer({ outcome: 'cancelled' });
    if (key.name === 'enter') {
      const text = typed.trim();
      if (text === '') return answer({ outcome: 'cancelled' });
      if (text.length <= MAX_CUSTOM_ANSWER_LENGTH) return answer({ outcome: 'custom', answer: text });
      // The contract refuses a longer answer: ask again rather than cut it.
      typedTitle = `Your answer — at most ${MAX_CUSTOM_ANSWER_LENGTH} characters, that was ${text.length}`;
      typed = '';
      return;
    }
    if (key.name === 'backspace')
      typed = [...new Intl.Segmenter().segment(typed)]
        .slice(0, -1)
        .map((part) => part.segment)
        .join('');
    else if (isTyped(key)) typed += key.text;
  }

  return {
    handleKey(key) {
      if (!answered) (mode === 'choose' ? choose : type)(key);
      return true;
    },
    handlePaste(text) {
      if (answered) return;
      if (mode === 'choose') {
        filter += text.replace(/\s+/g, ' ');
        index = 0;
      } else typed += text.replace(/\n/g, ' ');
    },
    render() {
      if (answered) return [];
      const title = theme.bold(printable(view.state.question));
      if (mode === 'type') {
        return [
          title,
          theme.bold(typedTitle),
          typed === '' ? theme.fg('dim', TYPE_SOMETHING) : `${typed}▏`,
          theme.fg('dim', 'enter submit · esc cancel'),
        ];
      }
      const shown = visible();
      const selected = Math.min(index, Math.max(0, shown.length - 1));
      const start = Math.max(0, Math.min(selected - 4, shown.length - ROWS));
      const rows = shown
        .slice(start, start + ROWS)
        .map((choice, offset) => (start + offset === selected ? theme.fg('accent', `› ${choice}`) : `  ${choice}`));
      return [
        title,
        theme.fg('muted', `filter: ${filter}`),
        ...rows,
        ...(shown.length === 0 ? [theme.fg('dim', '  (nothing matches)')] : []),
        theme.fg('dim', '↑↓ move · enter select · esc cancel'),
      ];
    },
  };
}
