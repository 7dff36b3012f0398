// What a test or an eval expects a run to call, and the rules that compare it with the run: one call
// matches, is the same method on another entity, or the tool was offered at a step.
import { toolNameMatches, type ToolNameMatcher } from "../tool-name-matcher.js";
import { canonicalJson } from "../../loop/snapshot/canonical-json.js";
import type { ProviderIdentity } from "../../tools/provider-identity.js";
import type { ToolUseCall, ToolUseRun, ToolUseStep } from "./tool-use-run.js";

/** The provider (entity) an expected call must run on: its class's source name, its id, or both. */
export interface ExpectedProvider {
  /** The provider class's source name (`Customer`). */
  readonly providerClass?: string | undefined;
  /** Compared as text: `42` and `"42"` both match either (give `idType` to tell them apart). */
  readonly id?: string | number | undefined;
  /** The id's type, to tell `42` from `"42"`. */
  readonly idType?: ProviderIdentity["idType"] | undefined;
}

/**
 * An expected call in full. `tool` with `provider` is the same in every binding mode: `/getAverageSpend$/`
 * on `{ providerClass: "Customer", id: "c123" }` matches `customer_c123_getAverageSpend` (per-instance and
 * deferred) and `customer_getAverageSpend` with c123's handle (handles).
 */
export interface ExpectedCall {
  /** The tool's name, or a pattern its name matches (default: any tool). */
  readonly tool?: ToolNameMatcher | undefined;
  /** The provider the call must run on (default: any, or none). */
  readonly provider?: ExpectedProvider | undefined;
  /**
   * What the input must hold: these fields with these values (compared as JSON: an object's keys in any
   * order), or a test of it.
   */
  readonly input?: Readonly<Record<string, unknown>> | ((input: unknown) => boolean) | undefined;
  /** How verdicts name it (default: made of `tool` and `provider`). */
  readonly label?: string | undefined;
}

/** An expected call: a tool name, a pattern, or an {@link ExpectedCall}. */
export type ExpectedToolCall = ToolNameMatcher | ExpectedCall;

/** An expected call as the scorer compares it. */
export interface Expectation extends ExpectedCall {
  readonly label: string;
}

/** The expectation `expected` stands for, with its label. */
export function expectationOf(expected: ExpectedToolCall): Expectation {
  if (typeof expected === "string" || expected instanceof RegExp)
    return { tool: expected, label: String(expected) };
  if (expected.label !== undefined) return { ...expected, label: expected.label };
  const { tool, provider } = expected;
  const entity = provider
    ? ` on ${[provider.providerClass, provider.id].filter((p) => p !== undefined).join(" ")}`
    : "";
  return { ...expected, label: `${tool === undefined ? "any tool" : String(tool)}${entity}` };
}

/** Whether `call` is a call `expected` asks for. */
export function matchesCall(expected: Expectation, call: ToolUseCall): boolean {
  return (
    nameMatches(expected.tool, call.toolName) &&
    providerMatches(expected.provider, call.provider) &&
    inputMatches(expected.input, call.input)
  );
}

/**
 * Whether `call` is the expected method on another entity: with an expected provider, a matching call on a
 * different provider of that class; with an exact per-instance tool name, the same method of the same class
 * bound to another provider.
 */
export function onAnotherEntity(expected: Expectation, call: ToolUseCall, run: ToolUseRun): boolean {
  if (!call.provider || !inputMatches(expected.input, call.input)) return false;
  if (expected.provider) {
    const sameClass =
      (expected.provider.providerClass ?? call.provider.providerClass) === call.provider.providerClass;
    return (
      nameMatches(expected.tool, call.toolName) &&
      sameClass &&
      !providerMatches(expected.provider, call.provider)
    );
  }
  const wanted = typeof expected.tool === "string" ? run.tools?.[expected.tool] : undefined;
  const made = run.tools?.[call.toolName];
  if (!wanted?.provider || !made) return false;
  return (
    made.providerClass === wanted.providerClass &&
    made.method === wanted.method &&
    !providerMatches(wanted.provider, call.provider)
  );
}

/**
 * Whether the model could make the expected call at `step` among `offered`: a tool of the right name, on the
 * expected provider (bound to it, or a handle tool once the model had read that provider's handle).
 */
export function offeredAmong(
  expected: Expectation,
  offered: readonly string[],
  step: number,
  run: ToolUseRun,
): boolean {
  return offered.some((name) => {
    if (!nameMatches(expected.tool, name)) return false;
    if (!expected.provider) return true;
    const binding = run.tools?.[name];
    if (binding?.provider) return providerMatches(expected.provider, binding.provider);
    if (!run.handles) return true; // the source does not say which entities the model could name
    return run.handles.some(
      (h) =>
        h.fromStep <= step &&
        providerMatches(expected.provider, h.provider) &&
        (!binding || binding.providerClass === h.provider.providerClass),
    );
  });
}

/** Whether `step` offered the expected call (false when the step does not say what it offered). */
export function offeredAt(expected: Expectation, step: ToolUseStep, run: ToolUseRun): boolean {
  return step.offered !== undefined && offeredAmong(expected, step.offered, step.step, run);
}

function nameMatches(tool: ToolNameMatcher | undefined, name: string): boolean {
  return tool === undefined || toolNameMatches(tool, name);
}

function providerMatches(
  expected: ExpectedProvider | undefined,
  actual: ProviderIdentity | undefined,
): boolean {
  if (!expected) return true;
  if (!actual) return false;
  return (
    (expected.providerClass === undefined || expected.providerClass === actual.providerClass) &&
    (expected.id === undefined || String(expected.id) === String(actual.id)) &&
    (expected.idType === undefined || expected.idType === actual.idType)
  );
}

function inputMatches(expected: Expectation["input"], input: unknown): boolean {
  if (expected === undefined) return true;
  if (typeof expected === "function") return expected(input);
  if (typeof input !== "object" || input === null) return false;
  const fields = input as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) => jsonOf(fields[key]) === jsonOf(value));
}

/** A field's value as JSON, its objects' keys in one order (a model writes them in any); none for `undefined`. */
function jsonOf(value: unknown): string | undefined {
  return JSON.stringify(value) === undefined ? undefined : canonicalJson(value);
}
