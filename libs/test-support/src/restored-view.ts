import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { RemoteError, type RemoteState } from '@pi/remote';
import { nextValue } from './waiting';

/** What of a session's `views` service this needs (kept structural: test-support knows no plugin API). */
export interface ViewMessaging {
  readonly open: RemoteState<readonly { readonly viewId: string; readonly version: number }[]>;
  message(viewId: string, message: never, context: Context): Promise<void>;
}

/**
 * Sends `message` to a view a restarted session restored, once its plugin took it back: until then the session
 * refuses it with `unavailable`, and it announces the moment with a new version of the view in the `open` cell.
 */
export async function messageOnceTaken(views: ViewMessaging, viewId: string, message: unknown): Promise<void> {
  for (;;) {
    const before = views.open.value.find((record) => record.viewId === viewId)?.version;
    try {
      await views.message(viewId, message as never, BACKGROUND_CONTEXT);
      return;
    } catch (error) {
      if (!(error instanceof RemoteError) || error.code !== 'unavailable') throw error;
    }
    await nextValue(views.open, (records) => records.some((r) => r.viewId === viewId && r.version !== before));
  }
}
