import { getLlmTools } from "../../decorators/index.js";
import { bindObjectTools, bindProviderTools } from "./bind-tools.js";
import { isToolProvider } from "./read-provider-id.js";
import type { AnyTool } from "./tool.js";
import { EntityToolsError } from "../errors/entity-tools-error.js";
import { refuseInvalidToolName } from "./errors.js";

/** What `withTools` accepts: a tool (from `defineTool`) or an object with `@LlmTool` methods. */
export type ToolSource = AnyTool | object;

/** A tool set with two tools of one name. */
export class DuplicateToolNameError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "DuplicateToolNameError";

  constructor(
    /** The name two tools have. */
    readonly toolName: string,
  ) {
    super(`Two tools are named "${toolName}": give one of them another name with @LlmTool({ name })`);
  }
}

/** Something given to `withTools` that is neither a tool nor an object with `@LlmTool` methods. */
export class InvalidToolSourceError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "InvalidToolSourceError";

  constructor(
    /** What was given, in words (its class or type). */
    readonly sourceName: string,
  ) {
    super(
      `withTools() takes tools from defineTool() or objects with @LlmTool methods; ${sourceName} has neither`,
    );
  }
}

/**
 * The tools of each source: decorated objects are bound (a provider under its `<prefix>_<id>_` names, any
 * other object under plain names); tools pass through.
 *
 * @throws DuplicateToolNameError when a name would be offered twice; InvalidToolNameError for a tool made by
 * hand whose name providers would reject.
 */
export function toolsFrom(sources: readonly ToolSource[], existing: readonly AnyTool[]): AnyTool[] {
  const tools = [...existing];
  const names = new Set(existing.map((t) => t.name));
  for (const source of sources) {
    for (const tool of toolsOf(source)) {
      if (names.has(tool.name)) throw new DuplicateToolNameError(tool.name);
      names.add(tool.name);
      tools.push(tool);
    }
  }
  return tools;
}

function toolsOf(source: ToolSource): AnyTool[] {
  if (getLlmTools(source.constructor).length > 0) {
    return isToolProvider(source) ? bindProviderTools(source) : bindObjectTools(source);
  }
  if (isTool(source)) {
    // A tool made by hand (not by defineTool) meets the naming contract too: a provider rejects the
    // request, not the tool, and only at the first model call.
    refuseInvalidToolName(source.name);
    return [source];
  }
  throw new InvalidToolSourceError(source.constructor?.name ?? typeof source);
}

function isTool(value: object): value is AnyTool {
  const candidate = value as Partial<AnyTool>;
  return (
    typeof candidate.name === "string" &&
    typeof candidate.execute === "function" &&
    typeof candidate.inputSchema === "object"
  );
}
