// Global set-up of the "bundle" test project (vitest.shared.ts): the bundles in dist/ made again from the
// sources, writing only the files that changed, so a test of what ships never runs a stale build. After
// `npm run build` (as in `npm test`) nothing is written.
import { bundle } from "../../scripts/bundle.mjs";

export default async function freshBundle(): Promise<void> {
  const written = await bundle({ onlyChanged: true });
  if (written.length > 0)
    console.log(`entity-tools: re-bundled ${written.length} files of dist/ from the sources`);
}
