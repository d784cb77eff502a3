import { parse } from 'acorn';

/** A module-level binding that one process can change and another process's copy of the module would not see. */
export interface MutableBinding {
  readonly name: string;
  /** `let`, `var`, or `const object` (a const object, array or instance that the module writes to). */
  readonly kind: 'let' | 'var' | 'const object';
  /** 1-based, as editors show it. */
  readonly line: number;
  readonly column: number;
}

interface SyntaxNode {
  readonly type: string;
  readonly loc: { readonly start: { readonly line: number; readonly column: number } };
  readonly [key: string]: unknown;
}

/** Methods that change the array, map or set they are called on. */
const MUTATING_METHODS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);
const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const MUTABLE_INITIALIZERS = new Set(['ObjectExpression', 'ArrayExpression', 'NewExpression']);

/**
 * The module-level mutable bindings of an ES module's source: every `let` declared at the top level, every `var`
 * outside a function (it is hoisted to the module), and every top-level `const` holding an object, array or `new`
 * instance that the module writes to (a property assigned, updated or deleted, a mutating method called on it, or
 * `Object.assign` into it). Other `const` bindings, functions and classes are not counted. A name also declared
 * in an inner scope is not followed into writes, so a local of the same name is never mistaken for it.
 * Throws the parser's SyntaxError (with its line) for source that is not JavaScript.
 */
export function findMutableBindings(source: string): MutableBinding[] {
  const program = parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    locations: true,
    allowHashBang: true,
  }) as unknown as SyntaxNode;
  const found: MutableBinding[] = [];
  const constObjects = new Map<string, SyntaxNode>();
  for (const statement of children(program)) {
    const declaration = statement.type.startsWith('Export')
      ? (statement['declaration'] as SyntaxNode | null)
      : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    const kind = declaration['kind'] as string;
    for (const declarator of declaration['declarations'] as SyntaxNode[]) {
      const init = declarator['init'] as SyntaxNode | null;
      if (kind === 'let') found.push(...bindingsOf(declarator['id'] as SyntaxNode, 'let'));
      else if (kind === 'const' && init !== null && MUTABLE_INITIALIZERS.has(init.type)) {
        const id = declarator['id'] as SyntaxNode;
        if (id.type === 'Identifier') constObjects.set(id['name'] as string, id);
      }
    }
  }
  found.push(...hoistedVars(program));
  const inner = innerDeclarations(program);
  const written = writtenObjects(program);
  for (const [name, id] of constObjects) {
    if (written.has(name) && !inner.has(name)) found.push(at(id, name, 'const object'));
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

function at(node: SyntaxNode, name: string, kind: MutableBinding['kind']): MutableBinding {
  return { name, kind, line: node.loc.start.line, column: node.loc.start.column + 1 };
}

/** The direct child nodes of a node, in source order. */
function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc') continue;
    const items: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item === 'object' && item !== null && typeof (item as SyntaxNode).type === 'string')
        out.push(item as SyntaxNode);
    }
  }
  return out;
}

function bindingsOf(pattern: SyntaxNode, kind: MutableBinding['kind']): MutableBinding[] {
  return patternIdentifiers(pattern).map((id) => at(id, id['name'] as string, kind));
}

function patternIdentifiers(pattern: SyntaxNode | null): SyntaxNode[] {
  if (pattern === null) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern];
    case 'ObjectPattern':
      return (pattern['properties'] as SyntaxNode[]).flatMap((property) =>
        patternIdentifiers((property.type === 'RestElement' ? property['argument'] : property['value']) as SyntaxNode),
      );
    case 'ArrayPattern':
      return (pattern['elements'] as Array<SyntaxNode | null>).flatMap(patternIdentifiers);
    case 'RestElement':
      return patternIdentifiers(pattern['argument'] as SyntaxNode);
    case 'AssignmentPattern':
      return patternIdentifiers(pattern['left'] as SyntaxNode);
    default:
      return [];
  }
}

/** `var` declarations outside any function: they bind in the module scope wherever they are written. */
function hoistedVars(node: SyntaxNode): MutableBinding[] {
  if (FUNCTION_TYPES.has(node.type)) return [];
  const own =
    node.type === 'VariableDeclaration' && node['kind'] === 'var'
      ? (node['declarations'] as SyntaxNode[]).flatMap((declarator) =>
          bindingsOf(declarator['id'] as SyntaxNode, 'var'),
        )
      : [];
  const nested = children(node)
    .filter((child) => !FUNCTION_TYPES.has(child.type))
    .flatMap(hoistedVars);
  return [...own, ...nested];
}

/** Names declared anywhere but the module's top level: parameters, locals, catch bindings, nested functions. */
function innerDeclarations(program: SyntaxNode): Set<string> {
  const names = new Set<string>();
  const topLevel = new Set(children(program).flatMap((statement) => [statement, statement['declaration']]));
  const visit = (node: SyntaxNode) => {
    if (FUNCTION_TYPES.has(node.type)) {
      for (const param of node['params'] as SyntaxNode[])
        for (const id of patternIdentifiers(param)) names.add(id['name'] as string);
      if (node.type !== 'FunctionDeclaration' || !topLevel.has(node)) {
        const id = node['id'] as SyntaxNode | null;
        if (id !== null && node.type === 'FunctionDeclaration') names.add(id['name'] as string);
      }
    }
    if (node.type === 'VariableDeclaration' && !topLevel.has(node)) {
      for (const declarator of node['declarations'] as SyntaxNode[])
        for (const id of patternIdentifiers(declarator['id'] as SyntaxNode)) names.add(id['name'] as string);
    }
    if (node.type === 'CatchClause')
      for (const id of patternIdentifiers(node['param'] as SyntaxNode | null)) names.add(id['name'] as string);
    if (node.type === 'ClassDeclaration' && !topLevel.has(node)) {
      const id = node['id'] as SyntaxNode | null;
      if (id !== null) names.add(id['name'] as string);
    }
    for (const child of children(node)) visit(child);
  };
  visit(program);
  return names;
}

/** Names whose objects the module writes to: `x.p = …`, `x[p] += …`, `x.p++`, `delete x.p`, `x.push(…)`, `Object.assign(x, …)`. */
function writtenObjects(program: SyntaxNode): Set<string> {
  const names = new Set<string>();
  const rootOf = (target: SyntaxNode): string | undefined => {
    let node = target;
    while (node.type === 'MemberExpression') node = node['object'] as SyntaxNode;
    return node.type === 'Identifier' && node !== target ? (node['name'] as string) : undefined;
  };
  const note = (name: string | undefined) => {
    if (name !== undefined) names.add(name);
  };
  const visit = (node: SyntaxNode) => {
    if (node.type === 'AssignmentExpression') note(rootOf(node['left'] as SyntaxNode));
    if (node.type === 'UpdateExpression') note(rootOf(node['argument'] as SyntaxNode));
    if (node.type === 'UnaryExpression' && node['operator'] === 'delete') note(rootOf(node['argument'] as SyntaxNode));
    if (node.type === 'CallExpression') {
      const callee = node['callee'] as SyntaxNode;
      const args = node['arguments'] as SyntaxNode[];
      if (callee.type === 'MemberExpression' && !callee['computed']) {
        const method = (callee['property'] as SyntaxNode)['name'] as string;
        const object = callee['object'] as SyntaxNode;
        if (MUTATING_METHODS.has(method))
          note(object.type === 'Identifier' ? (object['name'] as string) : rootOf(object));
        const isObjectAssign = object.type === 'Identifier' && object['name'] === 'Object' && method === 'assign';
        const first = args[0];
        if (isObjectAssign && first?.type === 'Identifier') note(first['name'] as string);
        if (isObjectAssign && first !== undefined) note(rootOf(first));
      }
    }
    for (const child of children(node)) visit(child);
  };
  visit(program);
  return names;
}
