import type { generateText } from "ai";
import { EntityToolsError } from "../errors/entity-tools-error.js";

/**
 * Every `generateText`/`streamText` setting the adapter passes on, applied to every step of a run (the
 * first, which goes through the SDK, and the later ones, which call the provider directly with the options
 * the SDK built): sampling, limits, headers, provider options, retries, the per-step `timeout`, and the
 * SDK's own `experimental_telemetry`. What the run owns (prompt, tools, tool choice, stop conditions,
 * callbacks) is not among them. A setting given as `undefined` is the SDK's default, as if left out.
 */
export type AiSdkAdapterSettings = {
  readonly [
    K in
      | "maxOutputTokens"
      | "temperature"
      | "topP"
      | "topK"
      | "presencePenalty"
      | "frequencyPenalty"
      | "stopSequences"
      | "seed"
      | "maxRetries"
      | "headers"
      | "providerOptions"
      | "experimental_telemetry"
  ]?: Parameters<typeof generateText>[0][K] | undefined;
} & {
  /**
   * Time limit of each step's model call (retries included), in milliseconds: a number, or
   * `{ totalMs, stepMs }` (both mean the same here, since the run calls the SDK one step at a time; the
   * smaller wins). Past it the call is aborted and the run fails with the timeout as its cause.
   */
  readonly timeout?:
    number | { readonly totalMs?: number | undefined; readonly stepMs?: number | undefined } | undefined;
};

const ACCEPTED: ReadonlySet<string> = new Set<keyof AiSdkAdapterSettings>([
  "maxOutputTokens",
  "temperature",
  "topP",
  "topK",
  "presencePenalty",
  "frequencyPenalty",
  "stopSequences",
  "seed",
  "maxRetries",
  "headers",
  "providerOptions",
  "experimental_telemetry",
  "timeout",
]);

/** A model setting the adapter cannot apply to every step: refused, so it is never half-applied. */
export class UnsupportedModelSettingError extends EntityToolsError {
  /** This class's name, written out so that a minified bundle keeps it. */
  static override readonly errorName: string = "UnsupportedModelSettingError";

  constructor(
    /** The setting refused (a key of `modelSettings`). */
    readonly setting: string,
    /** Why it cannot be applied, in words. */
    readonly reason: string,
  ) {
    super(
      `The model setting "${setting}" is not supported: ${reason}. Remove it from modelSettings ` +
        `(supported: ${[...ACCEPTED].join(", ")}).`,
    );
  }
}

/**
 * `settings` when the adapter can honour every one of them at every step.
 *
 * @throws UnsupportedModelSettingError naming the first one it cannot.
 */
export function checkModelSettings(settings: AiSdkAdapterSettings): AiSdkAdapterSettings {
  for (const key of Object.keys(settings)) {
    if (!ACCEPTED.has(key))
      throw new UnsupportedModelSettingError(
        key,
        "the run owns the prompt, tools, tool choice, stop conditions and callbacks, and passes on only the settings of a single model call",
      );
  }
  const timeout = settings.timeout as unknown;
  if (timeout !== undefined && typeof timeout !== "number") {
    const other = Object.keys(timeout as object).find((k) => k !== "totalMs" && k !== "stepMs");
    if (other)
      throw new UnsupportedModelSettingError(
        `timeout.${other}`,
        "only a per-call limit (a number, totalMs or stepMs) applies to every step, streamed or not",
      );
  }
  return settings;
}

/** The milliseconds a step's model call may take under `timeout`, if limited. */
export function stepTimeoutMs(timeout: AiSdkAdapterSettings["timeout"]): number | undefined {
  if (timeout === undefined || typeof timeout === "number") return timeout;
  const limits = [timeout.totalMs, timeout.stepMs].filter((ms): ms is number => ms !== undefined);
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/**
 * Whether the AI SDK's own telemetry watches this adapter's calls: its spans (`experimental_telemetry`
 * on), integrations given in it, or integrations registered for the whole process (`registerTelemetry`
 * on ai 7, `registerTelemetryIntegration` on ai 6: both keep them in this global). Such calls go through
 * the SDK at every step, so what it reports is every step.
 */
export function sdkTelemetryObserves(settings: AiSdkAdapterSettings): boolean {
  const telemetry = settings.experimental_telemetry as
    { readonly isEnabled?: boolean; readonly integrations?: unknown } | undefined;
  if (telemetry?.isEnabled === true) return true;
  if (telemetry?.integrations !== undefined) return true;
  const registered = (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown })
    .AI_SDK_TELEMETRY_INTEGRATIONS;
  return Array.isArray(registered) && registered.length > 0;
}
