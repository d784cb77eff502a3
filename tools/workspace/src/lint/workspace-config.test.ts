import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// .oxlintrc.json checks what ESLint checked (eslint.config.mjs until 2026-12-03: ESLint's and typescript-eslint's
// recommended sets as Nx's flat/base and flat/typescript configs set them, and the workspace's own rules). These are
// the 73 rules ESLint applied to a TypeScript file, by the name each has in .oxlintrc.json.
const eslintRecommended = [
  'for-direction',
  'no-async-promise-executor',
  'no-case-declarations',
  'no-compare-neg-zero',
  'no-cond-assign',
  'no-constant-binary-expression',
  'no-constant-condition',
  'no-control-regex',
  'no-debugger',
  'no-delete-var',
  'no-dupe-else-if',
  'no-duplicate-case',
  'no-empty',
  'no-empty-character-class',
  'no-empty-pattern',
  'no-empty-static-block',
  'no-ex-assign',
  'no-extra-boolean-cast',
  'no-fallthrough',
  'no-global-assign',
  'no-invalid-regexp',
  'no-irregular-whitespace',
  'no-loss-of-precision',
  'no-misleading-character-class',
  'no-nonoctal-decimal-escape',
  'no-prototype-builtins',
  'no-regex-spaces',
  'no-self-assign',
  'no-shadow-restricted-names',
  'no-sparse-arrays',
  'no-unexpected-multiline',
  'no-unsafe-finally',
  'no-unsafe-optional-chaining',
  'no-unused-labels',
  'no-unused-private-class-members',
  'no-useless-backreference',
  'no-useless-catch',
  'no-useless-escape',
  'no-var',
  'prefer-const',
  'prefer-rest-params',
  'prefer-spread',
  'require-yield',
  'use-isnan',
  'valid-typeof',
  // ESLint's no-octal; oxlint has none (its parser refuses the literal in a module, a script still needs the rule).
  'pi/no-octal',
];
const typescriptRecommended = [
  'adjacent-overload-signatures',
  'ban-ts-comment',
  'no-array-constructor',
  'no-duplicate-enum-values',
  'no-empty-function',
  'no-empty-interface',
  'no-empty-object-type',
  'no-explicit-any',
  'no-extra-non-null-assertion',
  'no-inferrable-types',
  'no-misused-new',
  'no-namespace',
  'no-non-null-asserted-optional-chain',
  'no-non-null-assertion',
  'no-this-alias',
  'no-unnecessary-type-constraint',
  'no-unsafe-declaration-merging',
  'no-unsafe-function-type',
  'no-unused-expressions',
  'no-unused-vars',
  'no-wrapper-object-types',
  'prefer-as-const',
  'prefer-namespace-keyword',
  'triple-slash-reference',
  'consistent-type-imports',
].map((rule) => `@typescript-eslint/${rule}`);
const workspaceOwn = [
  '@nx/enforce-module-boundaries',
  // ESLint's no-restricted-syntax with the selector ExportAllDeclaration; oxlint has no no-restricted-syntax.
  'pi/no-export-all',
];
const warnings = ['@typescript-eslint/no-explicit-any', '@typescript-eslint/no-non-null-assertion'];

type RuleSetting = string | [string, ...unknown[]];
interface Override {
  readonly files: readonly string[];
  readonly rules: Record<string, RuleSetting>;
}
const config = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../.oxlintrc.json', import.meta.url)), 'utf-8'),
) as {
  readonly categories: Record<string, string>;
  readonly rules?: Record<string, RuleSetting>;
  readonly overrides: readonly Override[];
};

/** The rules that apply to files matched by this glob of the config (the overrides naming it, in order). */
function rulesFor(...globs: string[]): Record<string, RuleSetting> {
  const applying = config.overrides.filter((override) => globs.some((glob) => override.files.includes(glob)));
  return Object.assign({}, config.rules, ...applying.map((override) => override.rules));
}
const severity = (setting: RuleSetting | undefined) => (Array.isArray(setting) ? setting[0] : setting);
const options = (setting: RuleSetting | undefined) => (Array.isArray(setting) ? setting[1] : undefined);

interface Constraint {
  readonly sourceTag: string;
  readonly onlyDependOnLibsWithTags: readonly string[];
}
const constraintsOf = (setting: RuleSetting | undefined) =>
  (options(setting) as { depConstraints: Constraint[] }).depConstraints;

describe("the workspace's oxlint config", () => {
  it('checks a TypeScript file with every rule ESLint checked it with, and no other', () => {
    const typescript = rulesFor('**/*.ts');
    expect(config.categories).toEqual({ correctness: 'off' });
    expect(Object.keys(typescript).sort()).toEqual(
      [...eslintRecommended, ...typescriptRecommended, ...workspaceOwn].sort(),
    );
    for (const [rule, setting] of Object.entries(typescript)) {
      expect([rule, severity(setting)]).toEqual([rule, warnings.includes(rule) ? 'warn' : 'error']);
    }
    expect(rulesFor('**/*.mts')).toEqual(typescript);
  });

  it('checks a JavaScript module for its module boundaries only, as ESLint did', () => {
    expect(Object.keys(rulesFor('**/*.js'))).toEqual(['@nx/enforce-module-boundaries']);
    expect(rulesFor('**/*.mjs')).toEqual(rulesFor('**/*.js'));
  });

  it('lets unused names start with an underscore, and nothing else', () => {
    expect(options(rulesFor('**/*.ts')['@typescript-eslint/no-unused-vars'])).toEqual({
      vars: 'all',
      args: 'after-used',
      caughtErrors: 'all',
      ignoreRestSiblings: false,
      argsIgnorePattern: '^_',
      varsIgnorePattern: '^_',
    });
  });

  it('lets test files, and only them, import the test-support projects', () => {
    const product = constraintsOf(rulesFor('**/*.ts')['@nx/enforce-module-boundaries']);
    const tests = constraintsOf(rulesFor('**/*.ts', '**/*.test.ts')['@nx/enforce-module-boundaries']);
    expect(
      product.filter(({ onlyDependOnLibsWithTags }) => onlyDependOnLibsWithTags.includes('type:test-support')),
    ).toEqual([
      expect.objectContaining({ sourceTag: 'type:test-support' }),
      expect.objectContaining({ sourceTag: 'type:tooling' }),
    ]);
    expect(tests).toEqual(
      product.map(({ sourceTag, onlyDependOnLibsWithTags }) => ({
        sourceTag,
        onlyDependOnLibsWithTags: sourceTag.startsWith('type:')
          ? [...new Set([...onlyDependOnLibsWithTags, 'type:test-support'])]
          : onlyDependOnLibsWithTags,
      })),
    );
    for (const glob of [
      '**/examples/**/*.ts',
      '**/test/**/*.ts',
      '**/testing/**/*.ts',
      '**/testing.ts',
      '**/vitest.config.ts',
    ]) {
      expect(rulesFor('**/*.ts', glob)['@nx/enforce-module-boundaries']).toEqual(
        rulesFor('**/*.ts', '**/*.test.ts')['@nx/enforce-module-boundaries'],
      );
    }
  });
});
