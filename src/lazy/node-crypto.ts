// `node:crypto`, loaded when first used rather than by `import("entity-tools")`: it brings 17 internal
// modules of Node's, about a third of what the import cost over `import("ai")` (performance.md, round 6),
// and a process needs it only when a run names, signs or writes something. `process.getBuiltinModule`
// (Node 20.16 and later) loads it synchronously on the first call; later calls are a lookup.

/** Node's `crypto` module, loaded on first call. */
export const nodeCrypto = (): typeof import("node:crypto") => process.getBuiltinModule("node:crypto");
