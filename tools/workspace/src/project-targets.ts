import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CreateNodesV2, TargetConfiguration } from '@nx/devkit';

/**
 * An inference plugin giving every project whose root holds `configFile` (a file beside a package.json, the
 * workspace root excepted) the target `name`, as `target(workspaceRoot)` describes it.
 */
export function inferTarget(
  configFile: string,
  name: string,
  target: (workspaceRoot: string) => TargetConfiguration,
): CreateNodesV2 {
  return [
    `**/${configFile}`,
    (configFiles, _options, context) =>
      configFiles.flatMap((file) => {
        const projectRoot = dirname(file);
        if (projectRoot === '.' || !existsSync(join(context.workspaceRoot, projectRoot, 'package.json'))) return [];
        const targets = { [name]: target(context.workspaceRoot) };
        return [[file, { projects: { [projectRoot]: { targets } } }]];
      }),
  ];
}
