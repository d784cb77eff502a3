import type { InteractiveComponent, JsonValue, TuiKey, TuiTheme, WritableSettingLayer } from '@pi/plugin-api';
import type { SettingEntry, SettingsCatalogState } from '@pi/settings';
import { warningLines } from './settings-list';
import { formatValue, parseTyped, valueKind } from './value-kind';

/** The layers a change can go to, in the order Tab cycles them; the session comes first. */
export const PANEL_LAYERS: readonly WritableSettingLayer[] = ['session', 'user', 'project'];

/** How many settings the panel shows at once; the selection scrolls the window. */
const VISIBLE_ROWS = 12;

export interface PanelActions {
  /** The catalog as last replicated, or undefined before the session answered. */
  state(): SettingsCatalogState | undefined;
  set(key: string, value: JsonValue, layer: WritableSettingLayer): void;
  unset(key: string, layer: WritableSettingLayer): void;
  /** Something the user should read (a value that does not parse). */
  tell(message: string): void;
  changed(): void;
}

/**
 * `/settings` as an overlay: every declared setting grouped by plugin, with its effective value and layer, edited in
 * place — ←/→ (or Enter) steps through the options of an enum or a boolean and saves at once; Enter on a number, a
 * string or a JSON value edits it in the row, Enter saves, Esc cancels. Tab picks the layer changes go to, Delete
 * removes the value from that layer, typing filters, Esc closes.
 */
export class SettingsPanel implements InteractiveComponent {
  #open = false;
  #selected = 0;
  #filter = '';
  #layer: WritableSettingLayer = 'session';
  #editing: string | undefined;

  constructor(
    private readonly actions: PanelActions,
    private readonly theme: TuiTheme,
  ) {}

  get isOpen(): boolean {
    return this.#open;
  }

  open(): void {
    this.#open = true;
    this.#selected = 0;
    this.#filter = '';
    this.#editing = undefined;
    this.actions.changed();
  }

  render(): string[] {
    if (!this.#open) return [];
    const { theme } = this;
    const state = this.actions.state();
    const rows = this.#rows();
    const layers = PANEL_LAYERS.map((layer) => (layer === this.#layer ? theme.fg('accent', `[${layer}]`) : layer));
    const lines = [`${theme.bold('Settings')}  changes go to ${layers.join(' ')}`];
    for (const warning of state === undefined ? [] : warningLines(state)) lines.push(theme.fg('warning', warning));
    if (this.#filter !== '') lines.push(theme.fg('muted', `filter: ${this.#filter}`));
    if (rows.length === 0)
      lines.push(theme.fg('dim', state === undefined ? '  (waiting for the session)' : '  (nothing matches)'));
    const selected = Math.min(this.#selected, Math.max(0, rows.length - 1));
    const start = Math.max(0, Math.min(selected - Math.floor(VISIBLE_ROWS / 2), rows.length - VISIBLE_ROWS));
    let owner: string | undefined = start > 0 ? rows[start - 1]?.owner : undefined;
    rows.slice(start, start + VISIBLE_ROWS).forEach((setting, offset) => {
      if (setting.owner !== owner) lines.push(theme.fg('muted', setting.owner));
      owner = setting.owner;
      lines.push(this.#row(setting, start + offset === selected));
    });
    lines.push(
      theme.fg(
        'dim',
        this.#editing === undefined
          ? '↑↓ move · ←→ change · enter edit · tab layer · del reset · esc close'
          : 'enter save · esc cancel',
      ),
    );
    return lines;
  }

  handleKey(key: TuiKey): boolean {
    if (!this.#open) return false;
    if (this.#editing !== undefined) return this.#handleEditKey(key);
    const rows = this.#rows();
    const setting = rows[Math.min(this.#selected, Math.max(0, rows.length - 1))];
    switch (key.name) {
      case 'escape':
        this.#open = false;
        break;
      case 'up':
        this.#selected = Math.max(0, this.#selected - 1);
        break;
      case 'down':
        this.#selected = Math.min(Math.max(0, rows.length - 1), this.#selected + 1);
        break;
      case 'tab':
        this.#layer =
          PANEL_LAYERS[(PANEL_LAYERS.indexOf(this.#layer) + (key.shift ? 2 : 1)) % PANEL_LAYERS.length] ?? 'session';
        break;
      case 'left':
      case 'right':
        if (setting !== undefined) this.#step(setting, key.name === 'left' ? -1 : 1);
        break;
      case 'enter':
        if (setting !== undefined) this.#enter(setting);
        break;
      case 'delete':
        if (setting !== undefined) this.actions.unset(setting.key, this.#layer);
        break;
      case 'backspace':
        this.#filter = this.#filter.slice(0, -1);
        this.#selected = 0;
        break;
      default:
        if (key.text === undefined || key.ctrl || key.alt) return true;
        this.#filter += key.text;
        this.#selected = 0;
    }
    this.actions.changed();
    return true;
  }

  handlePaste(text: string): void {
    if (this.#editing !== undefined) this.#editing += text.replace(/\r?\n/g, ' ');
    else this.#filter += text.replace(/\s+/g, ' ');
    this.actions.changed();
  }

  #rows(): SettingEntry[] {
    const settings = this.actions.state()?.settings ?? [];
    const filter = this.#filter.toLowerCase();
    return settings.filter((setting) => `${setting.owner} ${setting.key}`.toLowerCase().includes(filter));
  }

  #row(setting: SettingEntry, selected: boolean): string {
    const { theme } = this;
    const marker = selected ? theme.fg('accent', '›') : ' ';
    const value =
      selected && this.#editing !== undefined
        ? theme.fg('accent', `${this.#editing}▏`)
        : valueKind(setting.schema).kind === 'choice' && selected
          ? theme.fg('accent', `‹ ${formatValue(setting.value)} ›`)
          : formatValue(setting.value);
    return `${marker} ${selected ? theme.bold(setting.key) : setting.key} = ${value}  ${theme.fg('dim', `(${setting.layer})`)}`;
  }

  #step(setting: SettingEntry, direction: 1 | -1): void {
    const kind = valueKind(setting.schema);
    if (kind.kind !== 'choice') return;
    const at = kind.options.findIndex((option) => JSON.stringify(option) === JSON.stringify(setting.value));
    const next = kind.options[(at + direction + kind.options.length) % kind.options.length];
    if (next !== undefined) this.actions.set(setting.key, next, this.#layer);
  }

  #enter(setting: SettingEntry): void {
    const kind = valueKind(setting.schema);
    if (kind.kind === 'choice') return this.#step(setting, 1);
    this.#editing = kind.kind === 'json' ? JSON.stringify(setting.value) : formatValue(setting.value);
  }

  #handleEditKey(key: TuiKey): boolean {
    const rows = this.#rows();
    const setting = rows[Math.min(this.#selected, Math.max(0, rows.length - 1))];
    const text = this.#editing ?? '';
    if (key.name === 'escape') this.#editing = undefined;
    else if (key.name === 'backspace') this.#editing = text.slice(0, -1);
    else if (key.name === 'enter') {
      this.#editing = undefined;
      if (setting !== undefined) {
        const parsed = parseTyped(valueKind(setting.schema), text);
        if ('problem' in parsed) this.actions.tell(`${setting.key} not changed: ${parsed.problem}`);
        else this.actions.set(setting.key, parsed.value, this.#layer);
      }
    } else if (key.text !== undefined && !key.ctrl && !key.alt) this.#editing = text + key.text;
    this.actions.changed();
    return true;
  }
}
