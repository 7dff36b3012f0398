#!/usr/bin/env node
// The `entity-tools` bin: only the process wiring; the command itself is in schema-cli.ts. It is loaded
// dynamically because loading it loads the compiler, which a project may not have installed yet: that is
// a one-line message with the install command, not a stack trace.
import module from "node:module";

// Node's compile cache (Node 22.1 and later), as TypeScript's own `tsc` turns it on: the compiler is a
// 9 MB script, and compiling it is a large part of each run that the cache saves from the second run on.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
try {
  const { main } = await import("./schema-cli.js");
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`entity-tools: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
