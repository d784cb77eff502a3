import type { Result } from 'neverthrow';

/**
 * The user's own editor run on a text (`$VISUAL`/`$EDITOR` in a terminal), the terminal handed to it meanwhile.
 * Resolves with the saved text, or with why there is none (no editor set, it failed): the application knows the
 * real terminal and the environment, the host stops reading keys while it runs and redraws everything after.
 */
export type ExternalEditor = (text: string) => Promise<Result<string, string>>;
