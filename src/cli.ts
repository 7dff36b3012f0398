#!/usr/bin/env node
// The `entity-tools` bin: only the process wiring. Each command's module is loaded when it is asked for:
// `schemas` loads the compiler, which a project may not have installed yet (that is a one-line message with
// the install command, not a stack trace), and `view` needs none of it.
import module from "node:module";

const USAGE = `Usage: entity-tools <command> …

  schemas   generate the tools' JSON Schemas from your TypeScript types (entity-tools schemas --help)
  view      show run logs in a local page, or as one HTML file (entity-tools view --help)`;

// Node's compile cache (Node 22.1 and later), as TypeScript's own `tsc` turns it on: the compiler is a
// 9 MB script, and compiling it is a large part of each run that the cache saves from the second run on.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const [command, ...rest] = process.argv.slice(2);
try {
  if (command === "view") {
    const { viewMain } = await import("./viewer/view-cli.js");
    process.exitCode = await viewMain(rest);
  } else if (command === undefined || command === "--help" || command === "-h") {
    console.log(USAGE);
    process.exitCode = command === undefined ? 2 : 0;
  } else {
    const { main } = await import("./schema/schema-cli.js");
    process.exitCode = main(process.argv.slice(2));
  }
} catch (error) {
  console.error(`entity-tools: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
