export type { EntryBase, SessionEntry, SessionEntryKind, SessionHeader } from '@pi/agent-contract';
