import type { EntryResult, ForkResult, NavigateResult, SessionTreeService, TreeNode, TreePage } from '@pi/chat';
import { RemoteError } from '@pi/plugin-api';

const node = (
  id: string,
  parentId: string | null,
  kind: TreeNode['kind'],
  operationId: string,
  text: string,
  current: boolean,
): TreeNode => ({ id, parentId, kind, operationId, text, restingPoint: kind === 'run_settled', current });

/**
 * Two runs, then a second answer to the first one's end: run 1 (s1 u1 a1 e1), run 2 on the old branch (s2 u2 a2 e2),
 * run 3 on the current one (s3 u3 a3 e3).
 */
export function twoBranchNodes(): TreeNode[] {
  return [
    node('s1', null, 'run_started', 'op1', '', true),
    node('u1', 's1', 'user', 'op1', 'one', true),
    node('a1', 'u1', 'assistant', 'op1', 'A1', true),
    node('e1', 'a1', 'run_settled', 'op1', 'completed', true),
    node('s2', 'e1', 'run_started', 'op2', '', false),
    node('u2', 's2', 'user', 'op2', 'two', false),
    node('a2', 'u2', 'assistant', 'op2', 'A2', false),
    node('e2', 'a2', 'run_settled', 'op2', 'completed', false),
    node('s3', 'e1', 'run_started', 'op3', '', true),
    node('u3', 's3', 'user', 'op3', 'two, again', true),
    node('a3', 'u3', 'assistant', 'op3', 'A3', true),
    node('e3', 'a3', 'run_settled', 'op3', 'completed', true),
  ];
}

/** A Tree service over fixed nodes that records what it is asked; `fail` makes navigate and fork refuse. */
export interface StandInTree extends SessionTreeService {
  readonly navigated: Array<string | null>;
  readonly forked: Array<string | null>;
  readonly listed: Array<{ offset: number; limit: number }>;
  fail: RemoteError | null;
}

export function standInTree(nodes: TreeNode[] = twoBranchNodes(), leafId: string | null = 'e3'): StandInTree {
  const stand: StandInTree = {
    navigated: [],
    forked: [],
    listed: [],
    fail: null,
    async list(request): Promise<TreePage> {
      stand.listed.push(request);
      const page = nodes.slice(request.offset, request.offset + request.limit);
      return { offset: request.offset, total: nodes.length, leafId, nodes: page };
    },
    async navigate(request): Promise<NavigateResult> {
      if (stand.fail !== null) throw stand.fail;
      stand.navigated.push(request.entryId);
      return { leafId: request.entryId, moved: request.entryId !== leafId };
    },
    async fork(request): Promise<ForkResult> {
      if (stand.fail !== null) throw stand.fail;
      stand.forked.push(request.entryId);
      return { sessionId: 'forked-session-1', entries: 4 };
    },
    async entry(request): Promise<EntryResult> {
      const found = nodes.find((candidate) => candidate.id === request.entryId);
      if (found === undefined) throw new RemoteError('unknown_entry', 'no such entry');
      if (found.kind !== 'user') return { entry: null };
      // The whole text: longer than the one line a node carries.
      return { entry: { kind: 'user', id: found.id, operationId: found.operationId, text: `${found.text} (whole)` } };
    },
  };
  return stand;
}
