// Where a replay stands in its recording. The replayed answers' tool calls keep their recorded ids in the
// run's conversation, so a call's prompt says which recorded step the run has reached: a run resumed from
// a snapshot (or a conversation's next turn) on a replay of its own goes on at the recording's next step,
// not at its first, as a run in one process goes on from the step it played last.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { CassetteResponse, CassetteStep } from "./cassette.js";

/** The recorded steps by the ids of the tool calls their answers made. */
export class RecordedCallIndex {
  private readonly stepsById = new Map<string, number[]>();
  /** Each recorded call's tool, by id, for messages. */
  private readonly toolById = new Map<string, string>();

  constructor(steps: readonly CassetteStep[]) {
    for (const step of steps)
      for (const { toolCallId: id, toolName } of callsOf(step.response)) {
        const holding = this.stepsById.get(id);
        if (!holding) this.stepsById.set(id, [step.step]);
        else if (!holding.includes(step.step)) holding.push(step.step);
        if (!this.toolById.has(id)) this.toolById.set(id, toolName);
      }
  }

  /** What the recording holds, for a message: `it holds call_1 (searchCustomer, step 1), …` (at most five). */
  held(): string {
    const calls = [...this.stepsById].map(
      ([id, steps]) => `${id} (${this.toolById.get(id)!}, step ${steps.join(", ")})`,
    );
    if (calls.length === 0) return "it holds no tool call";
    const more = calls.length > MAX_NAMED ? `, and ${calls.length - MAX_NAMED} more` : "";
    return `it holds ${calls.slice(0, MAX_NAMED).join(", ")}${more}`;
  }

  /**
   * The recorded step that answers a call with this prompt, when the prompt says: its last assistant
   * message with tool calls holds calls of one recorded step only (by their ids), so the run has had that
   * step and one more for each assistant message after it (a text answer, a turn's end). Undefined when
   * the prompt holds no recorded call, or calls of several steps (ids a provider repeats): a run's first
   * step, a restart from the prompt, a conversation whose earlier turns were recorded elsewhere.
   */
  stepAfter(prompt: LanguageModelV3Prompt): number | undefined {
    let later = 0;
    for (let i = prompt.length - 1; i >= 0; i--) {
      const message = prompt[i]!;
      if (message.role !== "assistant") continue;
      const ids = message.content.flatMap((part) => (part.type === "tool-call" ? [part.toolCallId] : []));
      if (ids.length === 0) {
        later++;
        continue;
      }
      const steps = new Set(ids.flatMap((id) => this.stepsById.get(id) ?? []));
      return steps.size === 1 ? [...steps][0]! + 1 + later : undefined;
    }
    return undefined;
  }
}

/** How many recorded calls a message names. */
const MAX_NAMED = 5;

/** The ids of the tool calls a recorded answer made. */
export function callIdsOf(response: CassetteResponse): string[] {
  return callsOf(response).map((call) => call.toolCallId);
}

function callsOf(response: CassetteResponse): { toolCallId: string; toolName: string }[] {
  const parts = response.kind === "generate" ? response.content : response.parts;
  return parts.flatMap((p) =>
    p.type === "tool-call" && typeof p.toolCallId === "string"
      ? [{ toolCallId: p.toolCallId, toolName: String(p.toolName) }]
      : [],
  );
}
