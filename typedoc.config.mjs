// TypeDoc (`npm run docs:api`): the API reference of every entry point of package.json (the sources of its
// `types`), so a new entry point in `exports` is documented without a line here.
import { entryPoints } from "./scripts/entry-points.mjs";

/** @type {Partial<import("typedoc").TypeDocOptions>} */
export default {
  entryPoints: [...new Set(entryPoints().names.map((entry) => entry.types))],
  tsconfig: "tsconfig.build.json",
  out: "docs/api",
  name: "entity-tools",
  readme: "none",
  excludePrivate: true,
  excludeInternal: true,
  disableSources: true,
  validation: {
    notExported: false,
    invalidLink: true,
    notDocumented: true,
  },
  // The MCP transports extend the SDK's, whose comments link to its own types: to its package, not a page here.
  externalSymbolLinkMappings: {
    "@modelcontextprotocol/server": { "*": "https://www.npmjs.com/package/@modelcontextprotocol/server" },
  },
  treatWarningsAsErrors: true,
  logLevel: "Warn",
  requiredToBeDocumented: ["Enum", "Variable", "Function", "Class", "Interface", "TypeAlias", "Namespace"],
};
