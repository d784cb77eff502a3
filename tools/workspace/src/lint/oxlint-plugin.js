// The workspace's own oxlint rules: a JS plugin that .oxlintrc.json loads by path, so it is JavaScript that oxlint
// imports as it is, without a build step (its types are in oxlint-plugin.d.ts).

const exportAllMessage = 'Export by name from a public index (no export *).';

/** `export * from …` and `export * as name from …`: a public index names what it exports. */
const noExportAll = {
  meta: { type: 'problem', docs: { description: exportAllMessage } },
  create(context) {
    return {
      ExportAllDeclaration(node) {
        context.report({ node, message: exportAllMessage });
      },
    };
  },
};

// ESLint's no-octal. oxlint has no such rule: its parser refuses `071` in a module (strict mode), but parses a file
// with no import or export as a script, where the literal is allowed.
const octalMessage = 'Octal literals should not be used.';

/** A number written `071` (octal in sloppy mode) or `09` (decimal despite its leading zero). */
const noOctal = {
  meta: { type: 'suggestion', docs: { description: octalMessage } },
  create(context) {
    return {
      Literal(node) {
        if (typeof node.value === 'number' && /^0[0-9]/u.test(node.raw))
          context.report({ node, message: octalMessage });
      },
    };
  },
};

export default {
  meta: { name: 'pi' },
  rules: { 'no-export-all': noExportAll, 'no-octal': noOctal },
};
