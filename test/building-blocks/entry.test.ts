// entity-tools/building-blocks: the parts for people writing their own servers and backends. The root
// still exports the older ones for existing code, as the very same objects.
import { describe, expect, it } from "vitest";
import * as root from "entity-tools";
import * as blocks from "entity-tools/building-blocks";

describe("entity-tools/building-blocks", () => {
  it("exports the handle codec, binding helpers, metadata readers, the local request guard and the stores' snapshot text", () => {
    expect(Object.keys(blocks).sort()).toEqual([
      "DEFAULT_RUN_SETTINGS",
      "EntityHandleCodec",
      "EntityHandleError",
      "HANDLE_PARAMETER",
      "HandleBindings",
      "KeyRing",
      "LOCAL_HOST_NAMES",
      "MIN_SIGNING_KEY_BYTES",
      "SourceNameClaims",
      "TOOL_NAME_PATTERN",
      "bindObjectTools",
      "bindProviderTools",
      "estimateDefinitionTokens",
      "getLlmTools",
      "getToolParamDescriptions",
      "getToolProviderOptions",
      "handleParameterOf",
      "handleToolsOf",
      "instanceKeyOf",
      "isToolProvider",
      "isValidToolName",
      "localRequestGuard",
      "snapshotFromText",
      "snapshotText",
    ]);
  });

  it("hands out the same objects the root entry still exports; blocks newer than the subpath are only here", () => {
    const fromRoot = root as Record<string, unknown>;
    const onlyHere = [
      "KeyRing",
      "LOCAL_HOST_NAMES",
      "MIN_SIGNING_KEY_BYTES",
      "SourceNameClaims",
      "instanceKeyOf",
      "localRequestGuard",
      "snapshotFromText",
      "snapshotText",
    ];
    for (const [name, value] of Object.entries(blocks))
      expect(fromRoot[name], name).toBe(onlyHere.includes(name) ? undefined : value);
  });
});
