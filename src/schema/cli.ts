#!/usr/bin/env node
// The `entity-tools` bin: only the process wiring; the command itself is in schema-cli.ts.
import { main } from "./schema-cli.js";

process.exitCode = main(process.argv.slice(2));
