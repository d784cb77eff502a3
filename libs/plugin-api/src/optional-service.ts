import { ServiceRegistrationError, type LocalService } from '@pi/remote';
import type { ProvidingPluginContext } from './providing-context';

/**
 * A local service of another plugin that may be absent from the manifest (accounts, settings). Only "not
 * provided" means absent; any other failure is a bug and is thrown.
 */
export function optionalService<T>(context: ProvidingPluginContext, token: LocalService<T>): T | undefined {
  try {
    return context.use(token);
  } catch (error) {
    if (error instanceof ServiceRegistrationError) return undefined;
    throw error;
  }
}
