// Node built-ins that `import("entity-tools")` does not load, loaded when first used instead. An ES module
// that imports a built-in makes Node load it and every part its exports name: `node:crypto` brings 17
// internal modules of Node's, `node:util` (on Node 22) and `node:fs/promises` (its streams and readline)
// a dozen more; together they were half of what the import cost over `import("ai")` (performance.md,
// round 6), though a process needs them only when a run names, signs, compares or stores something.
// `process.getBuiltinModule` (Node 20.16 and later) loads one synchronously on the first call; later
// calls are a lookup.

/** Node's `crypto`, loaded on first call. */
export const nodeCrypto = () => process.getBuiltinModule("node:crypto");

/** Node's `util`, loaded on first call. */
export const nodeUtil = () => process.getBuiltinModule("node:util");

/** Node's `fs/promises`, loaded on first call. */
export const nodeFs = () => process.getBuiltinModule("node:fs/promises");

/** Node's `child_process`, loaded on first call (`entity-tools/claude` starts Claude Code only in a run). */
export const nodeChildProcess = () => process.getBuiltinModule("node:child_process");
