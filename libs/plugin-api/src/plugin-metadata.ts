import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { HOST_NAMES, type HostName } from './host-contexts';

/** The plugin API this build implements, `major.minor`: a plugin built for the same major and an equal or lower
 *  minor loads; anything else is refused at startup. */
export const PLUGIN_API_VERSION = '2.2';

const VERSION = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
const facetsShape = Object.fromEntries(HOST_NAMES.map((host) => [host, z.string().min(1).max(512).optional()])) as {
  [H in HostName]: z.ZodOptional<z.ZodString>;
};

/** The `pi` field of a plugin's package.json: what every host knows about a plugin before loading any code. */
export const pluginMetadataSchema = z.strictObject({
  /** How manifests name the plugin; the package name when absent. */
  id: z.string().min(1).max(214).optional(),
  /** The plugin API version it was built for. */
  apiVersion: z.string().regex(VERSION, 'must be "major.minor", for example "2.0"'),
  description: z.string().max(1000).optional(),
  /** Per host, a module (relative to the package, or a package name) whose default export is the facet. */
  facets: z.strictObject(facetsShape),
});

export type PluginMetadata = z.infer<typeof pluginMetadataSchema>;

/** Whether a plugin built for `wanted` can run on this build's plugin API (`provided`, by default the current). */
export function checkApiVersion(wanted: string, provided: string = PLUGIN_API_VERSION): Result<void, string> {
  const plugin = VERSION.exec(wanted);
  const host = VERSION.exec(provided);
  if (plugin === null || host === null) return err(`plugin API version "${wanted}" is not "major.minor"`);
  const [, major, minor] = plugin;
  const [, hostMajor, hostMinor] = host;
  if (major === hostMajor && Number(minor) <= Number(hostMinor)) return ok(undefined);
  return err(`it was built for plugin API ${wanted}, this pi provides ${provided}`);
}
