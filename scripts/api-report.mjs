// The API report: one reviewed file per entry point of package.json (etc/api/<entry>.api.md), made by
// @microsoft/api-extractor from the build's declarations. `node scripts/api-report.mjs` fails when the
// public surface differs from the committed report; `--update` rewrites the reports (npm run api:update).
// Both fail when a public signature uses a type that no entry point exports (scripts/forgotten-exports.mjs),
// or when a public member has no TSDoc (the report marks it `(undocumented)`).
// Run after `npm run build`.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { forgottenExports } from "./forgotten-exports.mjs";

const update = process.argv.includes("--update");
const root = process.cwd();
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
mkdirSync("etc/api", { recursive: true });

const quiet = { logLevel: "none" };
let failed = false;
const entries = [];
for (const [key, target] of Object.entries(manifest.exports)) {
  if (typeof target !== "object" || !target.types) continue;
  if (!existsSync(target.types)) {
    failed = true;
    console.error(`${target.types} is missing: run npm run build first.`);
    continue;
  }
  const name = key === "." ? "entity-tools" : `entity-tools-${key.slice(2).replaceAll("/", "-")}`;
  const entryFile = `${root}/${target.types.replace(/^\.\//, "")}`;
  const config = ExtractorConfig.prepare({
    configObjectFullPath: undefined,
    packageJsonFullPath: `${root}/package.json`,
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entryFile,
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
        // A report lists what is exported; release tags and TSDoc syntax are not what it reviews. Forgotten
        // exports are read from the messages below, whatever their level.
        extractorMessageReporting: { default: quiet },
        tsdocMessageReporting: { default: quiet },
      },
    },
  });
  entries.push({ key, name, entryFile, config });
}

// One program for every entry point: the extractor analyses each in it, and the forgotten-export check
// compares their exports there.
const compilerState = entries.length
  ? CompilerState.create(entries[0].config, { additionalEntryPoints: entries.map((e) => e.entryFile) })
  : undefined;
const forgotten =
  compilerState &&
  forgottenExports(
    compilerState.program,
    entries.map((e) => e.entryFile),
  );
for (const { key, name, config } of entries) {
  const unexported = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    compilerState,
    messageCallback: (message) => {
      if (message.messageId !== "ae-forgotten-export") return;
      const found = forgotten.unexported(message);
      if (found) unexported.push(found);
      message.logLevel = "none";
      message.handled = true;
    },
  });
  const undocumented = undocumentedIn(`${root}/node_modules/.cache/api-report/${name}.api.md`);
  if (undocumented.length > 0) {
    failed = true;
    console.error(
      `The public API of "${key}" has members without TSDoc, which editors and the API reference then show ` +
        `bare: ${undocumented.join("; ")}. Document them where they are declared.`,
    );
  }
  for (const { name: type, where } of unexported) {
    failed = true;
    console.error(
      `The public API of "${key}" uses ${type} (${where}), which no entry point of package.json exports, so a ` +
        `user cannot import it by name: export it (with TSDoc) from "${key}", or keep it out of the public signature.`,
    );
  }
  if (!result.succeeded || (!update && result.apiReportChanged)) {
    failed = true;
    console.error(
      `The public API of "${key}" differs from etc/api/${name}.api.md: review the change, then run npm run api:update and commit the report.`,
    );
  } else if (update && result.apiReportChanged) console.log(`updated etc/api/${name}.api.md`);
}
process.exit(failed ? 1 : 0);

/** What a report (as the extractor just wrote it) marks `(undocumented)`: the line after each mark. */
function undocumentedIn(report) {
  if (!existsSync(report)) return [];
  const lines = readFileSync(report, "utf8").split("\n");
  const found = [];
  for (let i = 0; i < lines.length; i++)
    if (/^\/\/ (@\w+ )?\(undocumented\)$/.test(lines[i].trim())) found.push(lines[i + 1]?.trim() ?? "");
  return found;
}
