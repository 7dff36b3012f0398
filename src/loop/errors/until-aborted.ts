/**
 * `work`, or a rejection with the signal's reason as soon as `signal` fires: a model call or strategy
 * that ignores its signal cannot keep a cancelled run pending. The work itself is left to settle on its
 * own (its late result or error is dropped).
 */
export function untilAborted<T>(work: Promise<T> | T, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(work);
  const running = Promise.resolve(work);
  running.catch(() => {}); // a late failure after an abort has no one left to hear it
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([running, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
