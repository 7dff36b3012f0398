/**
 * `stream`, read through a stream that tells `cancelled` when its reader cancels it, then cancels `stream`:
 * the AI SDK's `createUIMessageStream` makes a stream that does not say when its reader cancels it (a
 * client that went away, through `pipeUIMessageStreamToResponse` or a `Response` body).
 */
export function whenCancelled<T>(
  stream: ReadableStream<T>,
  cancelled: () => void,
  /** Told each time the reader takes a chunk (it is handed out on the reader's demand only). */
  taken: () => void,
): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>(
    {
      async pull(controller) {
        const next = await reader.read();
        if (next.done) controller.close();
        else {
          taken();
          controller.enqueue(next.value);
        }
      },
      cancel(reason) {
        cancelled();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
