import { bindProviderTools } from "../tools/bind-tools.js";
import { InvalidToolProviderError } from "../tools/errors.js";
import { extractProviders } from "../tools/extract-providers.js";
import type { AnyTool } from "../tools/tool.js";
import type {
  ToolInjectionContext,
  ToolInjectionResult,
  ToolInjectionStrategy,
} from "./tool-injection-strategy.js";

/**
 * Discovery: when a tool returns `@ToolProvider` instances (alone, or in an array, `Set`, `Map` or other
 * collection), their `@LlmTool` methods become tools bound to those instances. Provider methods are
 * tools like any other, so a provider returned by a provider's tool is discovered the same way.
 *
 * A provider without a usable id does not end the run: it is skipped and the model is told why.
 */
export class ToolProviderStrategy implements ToolInjectionStrategy {
  evaluateToolResult(context: ToolInjectionContext): ToolInjectionResult {
    const add: AnyTool[] = [];
    const notices: string[] = [];
    let providers: object[];
    try {
      providers = extractProviders(context.lastToolCall.resultObject);
    } catch (error) {
      // A hostile value (a Proxy whose trap throws) cannot be searched; the call's result still stands.
      const why = error instanceof Error ? error.message : String(error);
      return { notices: [`The result could not be searched for entities (${why}); no tools were added.`] };
    }
    for (const provider of providers) {
      try {
        add.push(...bindProviderTools(provider));
      } catch (error) {
        if (!(error instanceof InvalidToolProviderError)) throw error;
        notices.push(`${error.message}; no tools were added for it.`);
      }
    }
    return { add, notices };
  }
}
