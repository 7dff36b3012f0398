// Types of entry-points.mjs, for the TypeScript files that import it (vitest.shared.ts).

/** The repository's root. */
export declare const root: string;

/** A JavaScript file the build makes: `out` is its path in dist/ without the extension. */
export interface BundleEntry {
  out: string;
  source: string;
}

/** A package name a user imports, with the sources of its `import` and `types` targets. */
export interface PackageName {
  name: string;
  /** The absolute path of the file its `import` condition resolves to. */
  built: string;
  source: string;
  types: string;
}

/** The package's entry points, from package.json `exports` and `bin`. */
export declare function entryPoints(manifest?: unknown): { bundles: BundleEntry[]; names: PackageName[] };
