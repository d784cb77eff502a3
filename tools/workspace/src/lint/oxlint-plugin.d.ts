import type { RuleTester } from 'oxlint/plugins-dev';

/** A rule as oxlint's RuleTester takes it. */
export type OxlintRule = Parameters<RuleTester['run']>[1];

/** The workspace's own oxlint rules, named `pi/<rule>` in .oxlintrc.json. */
declare const plugin: {
  readonly meta: { readonly name: 'pi' };
  readonly rules: { readonly 'no-export-all': OxlintRule; readonly 'no-octal': OxlintRule };
};
export default plugin;
