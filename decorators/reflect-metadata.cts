// The `Reflect.metadata` polyfill, loaded with `require` from this small CommonJS file. Importing the
// polyfill's 64 kB CommonJS file from ESM directly makes Node scan all of it for named exports first
// (cjs-module-lexer), which was a sixth of `import("entity-tools")`; here only these lines are scanned.
// (TypeScript emits the import as a `require`; bundlers follow it as they follow an import.)
import "reflect-metadata";
