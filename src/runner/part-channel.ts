import { StreamAlreadyReadError } from "./stream-read-error.js";

/**
 * An async iterable fed by pushes: what a streamed run hands out as `parts`. One consumer; parts pushed
 * before it starts are kept. A failure ends the iteration by throwing it. A second consumer is refused
 * when it asks for an iterator (else it would wait for parts the first one took, for ever). A consumer
 * that stops before the end (a `break` or a throw out of `for await` calls the iterator's `return`) is
 * told to `onStop`: nobody reads what would come, so its producer can stop making it.
 */
export class PartChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  private done = false;
  private failure: { error: unknown } | undefined;
  private claimed = false;

  constructor(private readonly onStop: () => void) {}

  push(part: T): void {
    if (this.done) return;
    if (this.waiting) this.settle({ value: part, done: false });
    else this.queue.push(part);
  }

  end(): void {
    this.done = true;
    if (this.waiting) this.settle({ value: undefined, done: true });
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failure = { error };
    const reject = this.failWaiting;
    this.waiting = this.failWaiting = undefined;
    reject?.(error);
  }

  /** @throws StreamAlreadyReadError when an iterator was already handed out */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.claimed) throw new StreamAlreadyReadError();
    this.claimed = true;
    return {
      next: () => {
        if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
      return: () => {
        this.queue.length = 0;
        if (!this.done) {
          this.end();
          this.onStop();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private settle(result: IteratorResult<T>): void {
    const resolve = this.waiting!;
    this.waiting = this.failWaiting = undefined;
    resolve(result);
  }
}
