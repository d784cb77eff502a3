import { describe, expect, it } from 'vitest';
import { findMutableBindings } from './module-bindings';

const names = (source: string) => findMutableBindings(source).map(({ name, kind, line }) => `${name}:${kind}:${line}`);

describe('module-level mutable bindings', () => {
  it('counts top-level let and var, exported or not, with their line', () => {
    expect(names('let count = 0;\nexport var total = 1;\nexport let { a, b: [c] } = {};')).toEqual([
      'count:let:1',
      'total:var:2',
      'a:let:3',
      'c:let:3',
    ]);
  });

  it('counts var outside functions wherever it is written, since it is hoisted to the module', () => {
    expect(names('if (true) {\n  var hoisted = 1;\n}\nfor (var i = 0; i < 1; i++) {}')).toEqual([
      'hoisted:var:2',
      'i:var:4',
    ]);
  });

  it('does not count let in a block or a loop, nor anything declared in a function', () => {
    expect(
      names('{ let block = 1; }\nfor (let i = 0; i < 1; i++) {}\nfunction f() { var local = 1; let x = 2; }'),
    ).toEqual([]);
  });

  it('exempts const bindings: primitives, functions, and objects the module never writes to', () => {
    expect(
      names('const n = 1;\nconst f = () => 2;\nconst table = { a: 1 };\nexport default { session: () => table.a };'),
    ).toEqual([]);
  });

  it('counts a const object, array or instance the module writes to', () => {
    const source = [
      'const shared = { count: 0 };',
      'const list = [];',
      'const cache = new Map();',
      'const merged = {};',
      'export default {',
      '  session: () => { shared.count++; list.push(1); },',
      '  tui: () => { cache.set("k", 1); Object.assign(merged, { a: 1 }); },',
      '};',
    ].join('\n');
    expect(names(source)).toEqual([
      'shared:const object:1',
      'list:const object:2',
      'cache:const object:3',
      'merged:const object:4',
    ]);
  });

  it('does not mistake a local of the same name for the module binding', () => {
    expect(names('const state = {};\nexport default { session: (state) => { state.x = 1; } };')).toEqual([]);
  });

  it('throws the parser’s error, with its line, for what is not JavaScript', () => {
    expect(() => findMutableBindings('const x: number = 1;')).toThrow(/\(1:7\)/);
  });
});
