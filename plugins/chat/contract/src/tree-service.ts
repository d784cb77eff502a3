import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';
import { transcriptEntrySchema, type TranscriptEntry } from './transcript';

/** The most nodes one `list` call returns (the argument schema refuses a larger `limit`). */
export const MAX_TREE_PAGE = 500;
/** A node's `text` is cut to this many characters (one line: control characters and newlines become spaces). */
export const TREE_TEXT_CHARS = 200;
/** The longest entry id the tree's methods accept; the session's own are UUIDs. */
export const MAX_ENTRY_ID_LENGTH = 256;

/** Why `navigate` or `fork` refused, as the RemoteError code. Stable. */
export const TREE_ERROR_CODES = {
  /** A run is in progress (navigate only): its entries must land on the branch it started on. */
  busy: 'busy',
  /** No entry with this id in the session. */
  unknown_entry: 'unknown_entry',
  /** The entry is inside a run that had not settled there; choose its settlement or an entry before the run. */
  not_resting_point: 'not_resting_point',
  /** The leaf move could not be written (the session file's fault): the leaf stays where it was. */
  session_file_unwritable: 'session_file_unwritable',
} as const;
export type TreeErrorCode = (typeof TREE_ERROR_CODES)[keyof typeof TREE_ERROR_CODES];

/** What a node is, in the transcript's words; `other` for a durable record a reader does not see. */
export type TreeNodeKind =
  | 'user'
  | 'assistant'
  | 'tool_result'
  | 'run_started'
  | 'abort_requested'
  | 'run_settled'
  | 'custom'
  | 'other';

/** One entry of the session tree. Leaf moves are not nodes: a node's parent is the entry its branch grew from. */
export interface TreeNode {
  id: string;
  /** null for a first entry (a root); a session that moved its leaf before its first entry has several roots. */
  parentId: string | null;
  kind: TreeNodeKind;
  operationId: string | null;
  /** One line, at most TREE_TEXT_CHARS: the message's text, the tool's name and result, the run's outcome. */
  text: string;
  /** The leaf may move here, and a fork start from here: no run is open at this entry. */
  restingPoint: boolean;
  /** On the current branch (from a root to the leaf). */
  current: boolean;
}

/** Nodes `offset` … `offset + nodes.length - 1` in the order they were written (an offset never changes). */
export interface TreePage {
  offset: number;
  total: number;
  /** The entry the next prompt follows, or null: before the first entry. */
  leafId: string | null;
  nodes: TreeNode[];
}

export interface TreeListRequest {
  offset: number;
  limit: number;
}

/** An entry id, or null for "before the first entry". */
export interface TreeEntryRequest {
  entryId: string | null;
}

/** One entry by id. */
export interface EntryRequest {
  entryId: string;
}

/** The whole entry as the chat transcript shows it; null for a durable record the transcript does not show. */
export interface EntryResult {
  entry: TranscriptEntry | null;
}

export interface NavigateResult {
  leafId: string | null;
  /** False when the leaf was there already (nothing was written). */
  moved: boolean;
}

/**
 * The forked session: a new session file beside this one, which a session process opens by this id (`pi-session
 * --session <id>`); starting one is the coordinator's business, so it is not running yet and no coordinator knows
 * it. No path crosses to a presentation.
 */
export interface ForkResult {
  sessionId: string;
  /** How many entries the fork holds. */
  entries: number;
}

/**
 * The session's tree, for presentations: list it, move the leaf (the next prompt branches from there; the chat
 * transcript follows the new branch for every client), fork a new session from an entry.
 */
export interface SessionTreeService {
  /** Up to `limit` (≤ MAX_TREE_PAGE) nodes from `offset`. */
  list(request: TreeListRequest, context: Context): Promise<TreePage>;
  /** Moves the leaf to a resting point, durably; refused with `busy` while a run is in progress. */
  navigate(request: TreeEntryRequest, context: Context): Promise<NavigateResult>;
  /** Writes a new session holding the branch up to a resting point; this session is untouched. */
  fork(request: TreeEntryRequest, context: Context): Promise<ForkResult>;
  /** One entry whole, on any branch (a node's `text` is one cut line): for example a user message to edit again. */
  entry(request: EntryRequest, context: Context): Promise<EntryResult>;
}

const index = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const entryId = z.string().min(1).max(MAX_ENTRY_ID_LENGTH);

export const treeNodeSchema: z.ZodType<TreeNode> = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  kind: z.enum([
    'user',
    'assistant',
    'tool_result',
    'run_started',
    'abort_requested',
    'run_settled',
    'custom',
    'other',
  ]),
  operationId: z.string().nullable(),
  text: z.string().max(TREE_TEXT_CHARS),
  restingPoint: z.boolean(),
  current: z.boolean(),
});

export const treePageSchema: z.ZodType<TreePage> = z.object({
  offset: index,
  total: index,
  leafId: z.string().nullable(),
  nodes: z.array(treeNodeSchema).max(MAX_TREE_PAGE),
});

export const treeListRequestSchema: z.ZodType<TreeListRequest> = z.object({
  offset: index,
  limit: z.number().int().min(1).max(MAX_TREE_PAGE),
});

export const treeEntryRequestSchema: z.ZodType<TreeEntryRequest> = z.object({ entryId: entryId.nullable() });

export const navigateResultSchema: z.ZodType<NavigateResult> = z.object({
  leafId: z.string().nullable(),
  moved: z.boolean(),
});

export const entryRequestSchema: z.ZodType<EntryRequest> = z.object({ entryId });

export const entryResultSchema: z.ZodType<EntryResult> = z.object({ entry: transcriptEntrySchema.nullable() });

export const forkResultSchema: z.ZodType<ForkResult> = z.object({ sessionId: z.string(), entries: index });

export const Tree = defineRemoteService<SessionTreeService>('tree', {
  methods: {
    list: { args: [treeListRequestSchema], result: treePageSchema },
    navigate: { args: [treeEntryRequestSchema], result: navigateResultSchema },
    fork: { args: [treeEntryRequestSchema], result: forkResultSchema },
    entry: { args: [entryRequestSchema], result: entryResultSchema },
  },
  state: {},
  events: {},
});
