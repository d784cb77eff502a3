/**
 * Lets one confirmation be open at a time: a second guarded call waits its turn (and then finds a grant the first
 * answer may have made) instead of opening a second dialog the user would have to tell apart. Waiting ends early,
 * with false, when `signal` aborts; the turn is then passed on as soon as it comes.
 */
export function oneAtATime(): (signal: AbortSignal | undefined) => Promise<(() => void) | false> {
  let last: Promise<void> = Promise.resolve();
  return async (signal) => {
    const previous = last;
    let release = (): void => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    last = previous.then(() => mine);
    if (await turnOrAbort(previous, signal)) return release;
    void previous.then(release);
    return false;
  };
}

function turnOrAbort(turn: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) return turn.then(() => true);
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });
}
