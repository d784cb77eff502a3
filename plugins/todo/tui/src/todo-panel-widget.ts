import type { TuiTheme, ViewInstance, ViewWidget } from '@pi/plugin-api';
import type { TodoList } from '@pi/todo';

/** The list above the transcript: a title with the count done, then one line per entry; nothing while empty. */
export function todoPanelWidget(view: ViewInstance<TodoList, never>, theme: TuiTheme): ViewWidget {
  return {
    render() {
      const { items } = view.state;
      if (items.length === 0) return [];
      const done = items.filter((item) => item.done).length;
      return [
        theme.bold(`Todo · ${done}/${items.length} done`),
        ...items.map((item) =>
          item.done
            ? theme.fg('success', `  ✓ ${item.id}. ${printable(item.text)}`)
            : `  ○ ${item.id}. ${printable(item.text)}`,
        ),
      ];
    },
  };
}

/** Text the model wrote, on one line: control characters become spaces so it cannot restyle the screen. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
