import { BACKGROUND_CONTEXT, withAbortSignal, type Context } from '@pi/context';

/** A fresh context the test can abort through its controller. */
export function abortableContext(): { controller: AbortController; context: Context } {
  const controller = new AbortController();
  return { controller, context: withAbortSignal(controller.signal, BACKGROUND_CONTEXT) };
}
