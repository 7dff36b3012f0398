// The API report: one reviewed file per entry point of package.json (etc/api/<entry>.api.md), made by
// @microsoft/api-extractor from the build's declarations. `node scripts/api-report.mjs` fails when the
// public surface differs from the committed report; `--update` rewrites the reports (npm run api:update).
// Run after `npm run build`.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const update = process.argv.includes("--update");
const root = process.cwd();
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
mkdirSync("etc/api", { recursive: true });

const quiet = { logLevel: "none" };
let failed = false;
for (const [key, target] of Object.entries(manifest.exports)) {
  if (typeof target !== "object" || !target.types) continue;
  if (!existsSync(target.types)) {
    failed = true;
    console.error(`${target.types} is missing: run npm run build first.`);
    continue;
  }
  const name = key === "." ? "entity-tools" : `entity-tools-${key.slice(2).replaceAll("/", "-")}`;
  const config = ExtractorConfig.prepare({
    configObjectFullPath: undefined,
    packageJsonFullPath: `${root}/package.json`,
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: `${root}/${target.types}`,
      compiler: { tsconfigFilePath: `${root}/tsconfig.build.json` },
      apiReport: {
        enabled: true,
        reportFileName: `${name}.api.md`,
        reportFolder: `${root}/etc/api/`,
        reportTempFolder: `${root}/node_modules/.cache/api-report/`,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: quiet },
        // A report lists what is exported; release tags and TSDoc syntax are not what it reviews.
        extractorMessageReporting: { default: quiet },
        tsdocMessageReporting: { default: quiet },
      },
    },
  });
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  if (!result.succeeded || (!update && result.apiReportChanged)) {
    failed = true;
    console.error(
      `The public API of "${key}" differs from etc/api/${name}.api.md: review the change, then run npm run api:update and commit the report.`,
    );
  } else if (update && result.apiReportChanged) console.log(`updated etc/api/${name}.api.md`);
}
process.exit(failed ? 1 : 0);
