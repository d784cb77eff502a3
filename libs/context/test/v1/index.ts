// The older copy's entry, as library-copies.test.ts bundles it: its contexts, with the current key helpers.
export { createContextKey, defineSharedContextKey } from '../../src/context-key';
export { DeferredAbort } from '../../src/deferred-abort';
export {
  BACKGROUND_CONTEXT,
  isContext,
  withAbortSignal,
  withContextValue,
  withDeferredAbort,
  withTelemetryContext,
} from './context';
