import { StreamAlreadyReadError, StreamPartsDroppedError } from "./stream-read-error.js";

/** How many parts a reader may be behind before its run waits for it (`ready`). */
const READER_HIGH_WATER = 64;
/** How many parts are kept for a reader that has not started; past that, none are (`StreamPartsDroppedError`). */
const UNREAD_LIMIT = 1_000;

/**
 * An async iterable fed by pushes: what a streamed run hands out as `parts`. One consumer; parts pushed
 * before it starts are kept, up to `UNREAD_LIMIT`: past that, a run that nobody reads (a caller that only
 * awaits `result`) stops keeping them, and a consumer that starts later is refused. Once a consumer reads,
 * `ready` says when its producer should wait: while it is `READER_HIGH_WATER` parts behind. A failure ends
 * the iteration by throwing it. A second consumer is refused when it asks for an iterator (else it would
 * wait for parts the first one took, for ever). A consumer that stops before the end (a `break` or a throw
 * out of `for await` calls the iterator's `return`) is told to `onStop`: nobody reads what would come, so
 * its producer can stop making it. `cut` hands out no part from then on (the run was aborted).
 */
export class PartChannel<T> implements AsyncIterable<T> {
  private queue: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  /** Producers waiting for the consumer to catch up (`ready`). */
  private drained: (() => void)[] = [];
  private done = false;
  private cutOff = false;
  private dropped = false;
  private failure: { error: unknown } | undefined;
  private claimed = false;

  constructor(private readonly onStop: () => void) {}

  push(part: T): void {
    if (this.done || this.cutOff || this.dropped) return;
    if (this.waiting) this.settle({ value: part, done: false });
    else if (!this.claimed && this.queue.length >= UNREAD_LIMIT) {
      this.dropped = true;
      this.queue = [];
    } else this.queue.push(part);
  }

  /**
   * Resolves when the producer may go on: at once while no consumer reads (a caller that only awaits the
   * run's result must not block it), else once the consumer is fewer than `READER_HIGH_WATER` parts behind,
   * or the channel ended, was cut or its consumer stopped.
   */
  ready(): Promise<void> {
    if (!this.claimed || this.done || this.cutOff || this.queue.length < READER_HIGH_WATER)
      return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /** No part is handed out from now on, those kept included; the end or the failure still is. */
  cut(): void {
    this.cutOff = true;
    this.queue = [];
    this.release();
  }

  end(): void {
    this.done = true;
    this.release();
    if (this.waiting) this.settle({ value: undefined, done: true });
  }

  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failure = { error };
    this.release();
    const reject = this.failWaiting;
    this.waiting = this.failWaiting = undefined;
    reject?.(error);
  }

  /**
   * @throws StreamAlreadyReadError when an iterator was already handed out
   * @throws StreamPartsDroppedError when parts were dropped before it was asked for
   */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.claimed) throw new StreamAlreadyReadError();
    if (this.dropped) throw new StreamPartsDroppedError(UNREAD_LIMIT);
    this.claimed = true;
    return {
      next: () => {
        if (this.queue.length > 0) {
          const value = this.queue.shift()!;
          if (this.queue.length < READER_HIGH_WATER) this.release();
          return Promise.resolve({ value, done: false });
        }
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
      return: () => {
        this.queue = [];
        if (!this.done) {
          this.end();
          this.onStop();
        }
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private release(): void {
    const drained = this.drained;
    this.drained = [];
    for (const resolve of drained) resolve();
  }

  private settle(result: IteratorResult<T>): void {
    const resolve = this.waiting!;
    this.waiting = this.failWaiting = undefined;
    resolve(result);
  }
}
