import { InvalidSettingError } from "../../errors/entity-tools-error.js";

/**
 * The limits of one run. One type for every layer: the runner stores it, the run session enforces it,
 * the executor reads the per-call parts. A new setting is added here, with its rule in `RULES`.
 */
export interface RunSettings {
  /**
   * Most iterations (model responses; see "Step" in docs/glossary.md) per run, its restarts and a resumed
   * snapshot's included (a continued conversation's turn counts its own); past it, the run fails with
   * `MaxIterationsExceededError`.
   */
  readonly maxIterations: number;
  /** Most injected tools offered at once; the least recently used go first. */
  readonly maxInjectedTools: number;
  /** Most definition tokens the injected tools may add to a request; none when absent. */
  readonly maxInjectedTokens?: number;
  /** How many times an unusable final answer is sent back for repair. */
  readonly maxOutputRepairs: number;
  /** Unknown tools called in a row before the run ends with `ToolNotFoundError`. */
  readonly maxUnknownToolCalls: number;
  /**
   * Most restarts from the prompt per run (a paused run resumed goes on counting; a continued
   * conversation's turn counts its own): section reads on backends without dynamic tools, strategies' `restart`.
   */
  readonly maxExpansions: number;
  /** Longest tool result text (and error or notice text) sent to the model, in characters. */
  readonly maxResultChars: number;
  /** Most bytes of media (images, audio, files) in one tool result; a part past it is left out, with a note. */
  readonly maxResultMediaBytes: number;
  /** Per-call time limit in milliseconds; none when absent. */
  readonly toolTimeoutMs?: number;
}

/** Every setting's default (frozen: runners share it). */
export const DEFAULT_RUN_SETTINGS: RunSettings = Object.freeze({
  maxIterations: 20,
  maxInjectedTools: 64,
  maxOutputRepairs: 2,
  maxUnknownToolCalls: 3,
  maxExpansions: 10,
  maxResultChars: 16_000,
  maxResultMediaBytes: 20_000_000,
});

// Node's timers overflow past 2^31-1 ms (about 24.8 days) and then fire after 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Rule {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

const count = (min: number): Rule => ({ min, max: Number.MAX_SAFE_INTEGER, integer: true });

const RULES: { readonly [K in keyof RunSettings]-?: Rule } = {
  maxIterations: count(1),
  maxInjectedTools: count(1),
  maxInjectedTokens: count(1),
  maxOutputRepairs: count(0),
  maxUnknownToolCalls: count(1),
  maxExpansions: count(0),
  maxResultChars: count(1),
  maxResultMediaBytes: count(0),
  toolTimeoutMs: { min: 1, max: MAX_TIMER_MS, integer: false },
};

/** The name a caller wrote for a setting (`withToolTimeout(ms)`), where it is not the setting's own. */
export type SettingNames = Partial<Record<keyof RunSettings, string>>;

/**
 * `value` if it is a valid value of `setting`.
 *
 * @throws InvalidSettingError naming the setting as the caller wrote it (`as`), the value and what it must be.
 */
export function checkSetting<K extends keyof RunSettings>(
  setting: K,
  value: number,
  as: string = setting,
): number {
  const rule = RULES[setting];
  const ok =
    typeof value === "number" &&
    Number.isFinite(value) &&
    value >= rule.min &&
    value <= rule.max &&
    (!rule.integer || Number.isInteger(value));
  if (ok) return value;
  throw new InvalidSettingError(as, value, expectation(rule));
}

/**
 * Settings with `patch` applied, every patched value checked (a bad one reported under its name in
 * `names`, else its own; one text names every setting of the patch: a builder's, `withToolTimeout(ms)`);
 * `undefined` values change nothing.
 */
export function withSettings(
  settings: RunSettings,
  patch: Partial<RunSettings>,
  names: SettingNames | string = {},
): RunSettings {
  const next: Partial<Record<keyof RunSettings, number>> = { ...settings };
  for (const [key, value] of Object.entries(patch) as [keyof RunSettings, number | undefined][]) {
    if (value !== undefined)
      next[key] = checkSetting(key, value, typeof names === "string" ? names : names[key]);
  }
  return next as RunSettings;
}

function expectation(rule: Rule): string {
  const kind = rule.integer ? "a whole number" : "a number";
  return rule.max === Number.MAX_SAFE_INTEGER
    ? `${kind} of at least ${rule.min}`
    : `${kind} from ${rule.min} to ${rule.max}`;
}
