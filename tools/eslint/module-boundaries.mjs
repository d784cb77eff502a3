// The tag table of docs/architecture.md, as @nx/enforce-module-boundaries constraints.
// Scopes say which host may run the code; types say what layer it is.
export const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:session', onlyDependOnLibsWithTags: ['scope:shared', 'scope:session'] },
  { sourceTag: 'scope:coordinator', onlyDependOnLibsWithTags: ['scope:shared', 'scope:coordinator'] },
  { sourceTag: 'scope:presentation', onlyDependOnLibsWithTags: ['scope:shared', 'scope:presentation'] },
  {
    sourceTag: 'scope:tools',
    onlyDependOnLibsWithTags: [
      'scope:shared',
      'scope:session',
      'scope:coordinator',
      'scope:presentation',
      'scope:tools',
    ],
  },
];

const productTypes = {
  'type:app': ['type:host', 'type:feature', 'type:contract', 'type:util'],
  'type:host': ['type:host', 'type:contract', 'type:util'],
  'type:feature': ['type:host', 'type:contract', 'type:util'],
  'type:contract': ['type:contract', 'type:util'],
  'type:util': ['type:util'],
  'type:test-support': ['type:test-support', 'type:host', 'type:feature', 'type:contract', 'type:util'],
  'type:tooling': [
    'type:tooling',
    'type:test-support',
    'type:app',
    'type:host',
    'type:feature',
    'type:contract',
    'type:util',
  ],
};

function typeConstraints(extra) {
  return Object.entries(productTypes).map(([sourceTag, allowed]) => ({
    sourceTag,
    onlyDependOnLibsWithTags: [...new Set([...allowed, ...extra])],
  }));
}

/** Constraints for product source: no project may import test support. */
export const productConstraints = [...scopeConstraints, ...typeConstraints([])];

/** Constraints for test files: the same scopes, plus the shared test-support projects. */
export const testConstraints = [...scopeConstraints, ...typeConstraints(['type:test-support'])];

export function boundaryRule(depConstraints) {
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints,
    },
  ];
}
