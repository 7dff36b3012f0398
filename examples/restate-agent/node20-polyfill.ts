// The Restate SDK uses Promise.withResolvers, which Node has from version 22; this repository also runs
// on Node 20. Defined only where it is missing, exactly as the standard specifies it.
const promises = Promise as { withResolvers?: unknown };
promises.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

export {};
