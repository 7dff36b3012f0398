import { createRequire } from "node:module";

let nodeRequire: NodeJS.Require | undefined;

/**
 * A dependency that a plain `import("entity-tools")` does not load: it is loaded on first use instead
 * (ajv with its formats, class-transformer), which keeps their load time out of a process's start-up.
 *
 * The run paths call {@link load} before they need it: `import()` is what bundlers follow, so a bundle
 * carries the dependency and needs no `node_modules` at run time. Code that runs outside them (a direct
 * `validate` in a test, a decorator at class definition) gets it from {@link get}, synchronously, with
 * Node's `require`: the same module instance `import` gives, as all of these are CommonJS packages.
 */
export class LazyDependency<T> {
  private value: T | undefined;
  private loading: Promise<T> | undefined;

  /**
   * @param specifier the package, for `require`.
   * @param importIt `import()` of the same package, written out so that bundlers see the specifier.
   * @param make what the rest of the code uses, from the module (namespace or `module.exports`).
   * @param onLoad called once, with the value, when it is first made.
   */
  constructor(
    private readonly specifier: string,
    private readonly importIt: () => Promise<unknown>,
    private readonly make: (module: unknown) => T,
    private readonly onLoad?: (value: T) => void,
  ) {}

  /** Whether it has been loaded (nothing pending on it runs before then). */
  get loaded(): boolean {
    return this.value !== undefined;
  }

  /** Loads it with `import()` (once); resolves when {@link get} no longer needs `require`. */
  load(): Promise<T> {
    if (this.value !== undefined) return Promise.resolve(this.value);
    return (this.loading ??= this.importIt().then((module) => this.settle(module)));
  }

  /** The dependency, loaded now with `require` unless {@link load} already did. */
  get(): T {
    if (this.value !== undefined) return this.value;
    nodeRequire ??= createRequire(import.meta.url);
    return this.settle(nodeRequire(this.specifier));
  }

  /**
   * The dependency if it is loaded, or if Node has already loaded it for someone else (the user's own
   * `import`), which {@link get} then takes at no cost; otherwise `undefined`, and nothing is loaded.
   */
  ifInProcess(): T | undefined {
    if (this.value !== undefined) return this.value;
    nodeRequire ??= createRequire(import.meta.url);
    let file: string;
    try {
      file = nodeRequire.resolve(this.specifier);
    } catch {
      return undefined; // not resolvable from here (a bundle): only `load` can get it
    }
    return nodeRequire.cache[file] ? this.get() : undefined;
  }

  private settle(module: unknown): T {
    if (this.value === undefined) {
      this.value = this.make(module);
      this.onLoad?.(this.value);
    }
    return this.value;
  }
}
