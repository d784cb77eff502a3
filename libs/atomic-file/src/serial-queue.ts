/**
 * Runs async work one at a time in call order, so a read that starts after a write observes it and two writes
 * never interleave their read-modify-write. A failure rejects only its own caller.
 */
export function serialQueue(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
