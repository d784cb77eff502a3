import type { RowName } from '../row-names';
import type { SoakRow } from '../soak-row';
import { authDeadlineRow } from './auth-deadline-row';
import { clientsRow } from './clients-row';
import { crossWorkspaceRow } from './cross-workspace-row';
import { fullDiskRow } from './full-disk-row';
import { fuzzRow } from './fuzz-row';
import { killRow } from './kill-row';
import { modelsJsonRow } from './models-json-row';
import { pausedSubscriberRow } from './paused-subscriber-row';
import { subscriptionFloodRow } from './subscription-flood-row';

/** Every row, by name; a row missing here is a compile error. */
export const ROWS: Record<RowName, SoakRow> = {
  fuzz: fuzzRow,
  clients: clientsRow,
  kill: killRow,
  'paused-subscriber': pausedSubscriberRow,
  'auth-deadline': authDeadlineRow,
  'subscription-flood': subscriptionFloodRow,
  'models-json': modelsJsonRow,
  'full-disk': fullDiskRow,
  'cross-workspace': crossWorkspaceRow,
};
