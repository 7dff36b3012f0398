import type { ModelMessage } from "ai";
import { DisclosureSession } from "../disclosure/disclosure-session.js";
import type { PromptTemplate } from "../disclosure/prompt-template.js";
import type { PromptParams, VisibilityOverrides } from "../disclosure/section-visibility.js";
import {
  ExpansionLimitError,
  VisibilityExpansionRequired,
} from "../disclosure/visibility-expansion-required.js";
import { VisibilityStore, type VisibilitySnapshot } from "../disclosure/visibility-store.js";
import type { RunEvents } from "../events/run-events.js";
import { withConversation } from "../loop/errors.js";
import { isConversationAdapter, type ConversationAdapter } from "../adapters/conversation-adapter.js";
import type { ModelAdapter } from "../adapters/model-adapter.js";
import { runConversationLoop } from "../loop/conversation-loop.js";
import { runToolLoop, type ToolLoopConfig, type ToolLoopOutcome } from "../loop/tool-loop.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { toolsFrom } from "./tool-sources.js";

/** A sectioned system prompt and its parameters. */
export interface TemplatePrompt {
  readonly template: PromptTemplate;
  readonly params: PromptParams;
}

/** What a run needs beyond the loop's own settings. */
export interface RunSetup {
  readonly adapter: ModelAdapter | ConversationAdapter;
  readonly loop: Omit<ToolLoopConfig, "events" | "system" | "signal" | "adapter">;
  readonly system?: string | TemplatePrompt;
  readonly visibilityOverrides: VisibilityOverrides;
  readonly maxExpansions: number;
  readonly signal?: AbortSignal;
  readonly events: RunEvents;
  readonly resumeFrom?: VisibilitySnapshot;
}

/** A run's outcome across restarts. */
export interface RunOutcome extends ToolLoopOutcome {
  readonly visibility: VisibilitySnapshot;
}

/**
 * Runs the loop, restarting it when a section read needs tools the backend cannot add mid-conversation:
 * the requested overrides are stored, the prompt re-rendered, and the run starts again from the prompt
 * (at most `maxExpansions` times). Iterations add up across restarts; the history and the injected tools
 * are those of the attempt that finished (a restart starts from the prompt).
 */
export async function executeRun(
  setup: RunSetup,
  messages: readonly ModelMessage[],
  outputSchema?: JsonSchema,
): Promise<RunOutcome> {
  const store = new VisibilityStore(setup.resumeFrom);
  let iterations = 0;
  for (let restarts = 0; ; restarts++) {
    const session = disclosureFor(setup, store);
    const loop: Omit<ToolLoopConfig, "adapter"> = {
      ...setup.loop,
      system: session ? session.render() : (setup.system as string | undefined),
      tools: session ? toolsFrom(session.initialTools(), setup.loop.tools) : setup.loop.tools,
      strategies: session ? [...setup.loop.strategies, session] : setup.loop.strategies,
      signal: setup.signal,
      events: setup.events,
    };
    try {
      const { adapter } = setup;
      const outcome = isConversationAdapter(adapter)
        ? await runConversationLoop({ ...loop, adapter }, messages, outputSchema)
        : await runToolLoop({ ...loop, adapter }, messages, outputSchema);
      return {
        ...outcome,
        iterations: iterations + outcome.iterations,
        visibility: store.snapshot(),
      };
    } catch (error) {
      if (!(error instanceof VisibilityExpansionRequired)) throw error;
      iterations += error.totalIterations;
      if (restarts >= setup.maxExpansions) {
        throw withConversation(
          new ExpansionLimitError(setup.maxExpansions, error.sectionKeys),
          error.conversationHistory,
          iterations,
          (e) => e as ExpansionLimitError,
        );
      }
      for (const [sectionKey, visibility] of Object.entries(error.requestedOverrides)) {
        store.dispatch({ type: "SetVisibilityOverride", sectionKey, visibility });
      }
      for (const sectionKey of error.sectionKeys)
        setup.events.emit({ type: "VisibilityExpanded", sectionKey, mode: "restart" });
    }
  }
}

function disclosureFor(setup: RunSetup, store: VisibilityStore): DisclosureSession | undefined {
  if (setup.system === undefined || typeof setup.system === "string") return undefined;
  const { template, params } = setup.system;
  return new DisclosureSession(
    template,
    params,
    setup.visibilityOverrides,
    store,
    setup.adapter.supportsDynamicTools,
    setup.events,
  );
}
