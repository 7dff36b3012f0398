// The run viewer's page, built into dist/ after tsc (`npm run build`): its script bundled from
// src/viewer/page/main.ts by the same function a checkout uses on first view, its HTML and style copied.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { bundleViewerPage } from "../src/viewer/page-assets.js";

const out = "dist/src/viewer/page";
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/viewer.js`, await bundleViewerPage("src/viewer/page/main.ts"));
for (const file of ["index.html", "viewer.css"]) copyFileSync(`src/viewer/page/${file}`, `${out}/${file}`);
