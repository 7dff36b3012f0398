// Types of bundle.mjs, for the TypeScript files that import it (test/support/fresh-bundle.ts).

/** Bundles the entry points into dist/; returns the paths written. */
export declare function bundle(options?: { onlyChanged?: boolean }): Promise<string[]>;
