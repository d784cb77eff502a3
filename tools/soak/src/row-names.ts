/** The soak's rows, in the order they run and print; `--only` takes these names. */
export const ROW_NAMES = [
  'fuzz',
  'clients',
  'kill',
  'paused-subscriber',
  'auth-deadline',
  'subscription-flood',
  'models-json',
  'full-disk',
  'cross-workspace',
] as const;

export type RowName = (typeof ROW_NAMES)[number];

export function isRowName(value: string): value is RowName {
  return (ROW_NAMES as readonly string[]).includes(value);
}
