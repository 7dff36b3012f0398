import type * as ClassTransformer from "class-transformer";
import { LazyDependency } from "./lazy-dependency.js";

/** The part of class-transformer this package uses. */
export type ClassTransformerApi = Pick<
  typeof ClassTransformer,
  "instanceToPlain" | "plainToInstance" | "Exclude"
>;

const loadedListeners: ((api: ClassTransformerApi) => void)[] = [];

/**
 * class-transformer, loaded on first use: by a run before its first tool call, by the first class
 * instance serialized or built, or soon after the first `@Hidden` field (see `whenClassTransformerLoads`).
 * Its 68 modules are not part of `import("entity-tools")`.
 */
export const classTransformer = new LazyDependency<ClassTransformerApi>(
  "class-transformer",
  () => import("class-transformer"),
  (m) => m as ClassTransformerApi,
  (api) => {
    for (const listener of loadedListeners.splice(0)) listener(api);
  },
);

/**
 * Runs `listener` with class-transformer once it is loaded: now, if it is (by us or by the user's own
 * import); else when it loads, which this starts (with `import()`, so nothing blocks). Whatever loads it first (a `require` from a
 * serialization included) runs the listeners before it is used.
 */
export function whenClassTransformerLoads(listener: (api: ClassTransformerApi) => void): void {
  // Already loaded (by us, or by the user's own import of it): at once, so that the user's own
  // `instanceToPlain` right after a class definition honours the field too.
  const loaded = classTransformer.ifInProcess();
  if (loaded) {
    listener(loaded);
    return;
  }
  loadedListeners.push(listener);
  // A failure here surfaces at the first real use, where `get()` throws it to the caller.
  classTransformer.load().catch(() => undefined);
}
