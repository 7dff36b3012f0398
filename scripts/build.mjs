// `npm run build`: dist/ made anew. The declarations come from tsc (one .d.ts per source file, which the
// `types` of package.json and the API reports read); the JavaScript is one bundle per entry point with
// shared chunks (scripts/bundle.mjs).
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { bundle } from "./bundle.mjs";
import { root } from "./entry-points.mjs";

rmSync(path.join(root, "dist"), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
  {
    cwd: root,
    stdio: "inherit",
  },
);
await bundle();
