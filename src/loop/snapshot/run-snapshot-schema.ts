// A snapshot comes from outside the process (a database, a queue, a browser): it is untrusted input, read
// in one place. `checkRunSnapshot` checks the whole of it against one JSON schema before anything of it is
// used, so a bad field is a `SnapshotError` naming the field, never a raw TypeError mid-run, a prototype
// reached through a `__proto__` key, or `"abc" + 1` iterations. A new snapshot field or version extends
// RUN_SNAPSHOT_SCHEMA here.
import type { JsonSchema } from "../../schema/json-schema.js";
import { validateAgainst } from "../../schema/validate.js";
import { TOOL_NAME_PATTERN } from "../../tools/tool-name-rules.js";
import {
  READABLE_SNAPSHOT_VERSIONS,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type RunSnapshot,
} from "./run-snapshot.js";
import { SectionVisibility } from "./section-visibility.js";
import { SnapshotError } from "./snapshot-error.js";
import { answerIndexOf, pausedGroups } from "./paused-groups.js";

/** Keys that would reach an object's prototype when used to index a plain object. */
const SAFE_KEYS = { not: { enum: ["__proto__", "constructor", "prototype"] } } as const;
const COUNT = { type: "integer", minimum: 0 } as const;
const TOOL_NAME = { type: "string", pattern: TOOL_NAME_PATTERN.source } as const;

/** Tokens and USD of a snapshot's cost: a finite number, never negative (NaN and Infinity are refused). */
const AMOUNT = { type: "number", minimum: 0, maximum: Number.MAX_VALUE } as const;
/** An id and its type that agree (`idType` "number": a number id; "bigint": its digits; "string": text). */
const TYPED_ID = [
  {
    if: { properties: { idType: { const: "number" } } },
    then: { properties: { id: { type: "number" } } },
  },
  {
    if: { properties: { idType: { const: "bigint" } } },
    then: { properties: { id: { type: "string", pattern: "^-?[0-9]+$" } } },
  },
  {
    if: { properties: { idType: { const: "string" } } },
    then: { properties: { id: { type: "string", minLength: 1 } } },
  },
] as const;
const IDENTITY_FIELDS = {
  providerClass: { type: "string", minLength: 1 },
  id: { type: ["string", "number"] },
  idType: { enum: ["string", "number", "bigint"] },
} as const;

/** A record of counts (counters, usage): the known ones required, any further ones numbers too. */
const counts = (required: readonly string[], each: object = COUNT, further: object = each) => ({
  type: "object",
  required,
  propertyNames: SAFE_KEYS,
  properties: Object.fromEntries(required.map((key) => [key, each])),
  additionalProperties: further,
});

/** The calls of one model message that wait for a decision (`PausedCalls`, and each of its `more`). */
const WAITING = {
  type: "object",
  required: ["iteration", "calls"],
  additionalProperties: false,
  properties: {
    iteration: COUNT,
    calls: { type: "array", minItems: 1, items: { $ref: "#/definitions/call" } },
  },
} as const;

/** The JSON schema of a run snapshot of every readable version (see `RunSnapshot`). */
export const RUN_SNAPSHOT_SCHEMA: JsonSchema = {
  type: "object",
  required: [
    "format",
    "version",
    "history",
    "tools",
    "visibility",
    "iterations",
    "usage",
    "counters",
    "settings",
  ],
  properties: {
    format: { const: SNAPSHOT_FORMAT },
    version: { enum: READABLE_SNAPSHOT_VERSIONS },
    history: { type: "array", items: { $ref: "#/definitions/message" } },
    tools: { type: "array", items: { $ref: "#/definitions/tool" } },
    paused: {
      ...WAITING,
      properties: { ...WAITING.properties, more: { type: "array", minItems: 1, items: WAITING } },
    },
    visibility: {
      type: "object",
      propertyNames: SAFE_KEYS,
      additionalProperties: { enum: Object.values(SectionVisibility) },
    },
    iterations: COUNT,
    turnIterations: COUNT,
    expansions: COUNT,
    usage: counts(["inputTokens", "outputTokens"], { type: "number", minimum: 0 }),
    counters: counts(
      [
        "modelCalls",
        "toolCalls",
        "toolFailures",
        "toolsInjected",
        "providersDiscovered",
        "dynamicExpansions",
        "restarts",
      ],
      COUNT,
      { type: "number", minimum: 0 },
    ),
    // Recorded for the caller; a resumed run uses its own runner's settings.
    settings: counts([], { type: "number" }),
    log: { type: "string", pattern: "^[A-Za-z0-9._-]{1,200}$" },
    conversationId: { type: "string", minLength: 1 },
    cost: {
      type: "object",
      required: ["total", "perStep", "perProvider"],
      additionalProperties: false,
      properties: {
        total: AMOUNT,
        perStep: { type: "array", items: { $ref: "#/definitions/stepCost" } },
        perProvider: { type: "array", items: { $ref: "#/definitions/providerCost" } },
      },
    },
  },
  definitions: {
    message: {
      type: "object",
      required: ["role", "content"],
      properties: {
        role: { enum: ["system", "user", "assistant", "tool"] },
        content: {
          anyOf: [
            { type: "string" },
            {
              type: "array",
              items: { type: "object", required: ["type"], properties: { type: { type: "string" } } },
            },
          ],
        },
      },
      if: { properties: { role: { const: "tool" } } },
      then: { properties: { content: { type: "array" } } },
    },
    // A static tool by name (the resuming runner must offer it), a handle tool by class and method
    // (version 2), or a provider's tool by its binding. The names of the last two are offered as they
    // are, so they must follow the naming rule.
    tool: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string", minLength: 1 } },
      if: { required: ["binding"] },
      then: {
        required: ["name", "binding", "providerClass", "method"],
        additionalProperties: false,
        properties: {
          name: TOOL_NAME,
          binding: { const: "handles" },
          providerClass: { type: "string", minLength: 1 },
          method: { type: "string", minLength: 1 },
        },
      },
      else: { $ref: "#/definitions/instanceTool" },
    },
    instanceTool: {
      type: "object",
      if: { required: ["providerClass"] },
      then: {
        required: ["name", "providerClass", "id", "idType", "method"],
        additionalProperties: false,
        properties: { name: TOOL_NAME, ...IDENTITY_FIELDS, method: { type: "string", minLength: 1 } },
        allOf: TYPED_ID,
      },
      else: { properties: { name: {} }, additionalProperties: false },
    },
    stepCost: {
      type: "object",
      // No `cost`: a call whose provider reported no usage has an unknown cost (`StepCost.cost`).
      required: ["iteration", "usage"],
      additionalProperties: false,
      properties: {
        iteration: COUNT,
        modelId: { type: "string" },
        usage: counts(["inputTokens", "outputTokens", "cachedInputTokens", "reasoningTokens"], AMOUNT),
        cost: AMOUNT,
      },
    },
    providerCost: {
      type: "object",
      required: ["identity", "definitionTokens", "calls", "resultTokens", "cost", "heldResultTokens"],
      additionalProperties: false,
      properties: {
        identity: {
          type: "object",
          required: ["providerClass", "id", "idType"],
          additionalProperties: false,
          properties: IDENTITY_FIELDS,
          allOf: TYPED_ID,
        },
        definitionTokens: AMOUNT,
        calls: COUNT,
        resultTokens: AMOUNT,
        cost: AMOUNT,
        heldResultTokens: AMOUNT,
        handles: { type: "array", items: { type: "string", minLength: 1 } },
      },
    },
    call: {
      type: "object",
      required: ["toolCallId", "toolName"],
      properties: {
        toolCallId: { type: "string", minLength: 1 },
        toolName: { type: "string" },
        input: {},
        inputError: { type: "string" },
      },
    },
  },
};

const MAX_PROBLEMS = 5;

/**
 * Checks that `value` is a run snapshot this version of entity-tools reads, whole, before anything of it
 * is used.
 *
 * @throws SnapshotError naming the format, the version, or up to five fields that do not fit.
 */
export function checkRunSnapshot(value: unknown): asserts value is RunSnapshot {
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  if (record?.format !== SNAPSHOT_FORMAT)
    throw new SnapshotError(
      `Not a run snapshot: expected format "${SNAPSHOT_FORMAT}". Pass the snapshot of a run (run.snapshot or error.snapshot)`,
    );
  if (!READABLE_SNAPSHOT_VERSIONS.includes(record.version as number))
    throw new SnapshotError(
      `The snapshot has format version ${String(record.version)}; this entity-tools reads versions ${READABLE_SNAPSHOT_VERSIONS.join(" and ")} (and writes ${SNAPSHOT_VERSION})`,
    );
  const outcome = validateAgainst(RUN_SNAPSHOT_SCHEMA, value);
  // An `if`/`then` failure repeats, less precisely, the problem reported inside its branch.
  const problems = outcome.ok ? [] : outcome.problems.filter((p) => !BRANCH_FAILURE.test(p));
  const history = (value as RunSnapshot).history;
  const paused = outcome.ok ? pausedGroups((value as RunSnapshot).paused) : [];
  if (paused.length > 0 && history.at(-1)?.role !== "tool")
    problems.push(
      "the paused calls do not follow their model message (the last message is not a tool message)",
    );
  // Each message's waiting calls (a Codex pause can hold several) are answered in its own tool message.
  const unanswerable = paused.find((g) => answerIndexOf(history, g) === undefined);
  if (unanswerable)
    problems.push(
      `the paused calls do not follow their model message (no tool message answers the call "${unanswerable.calls[0]!.toolCallId}")`,
    );
  const cost = (value as RunSnapshot).cost;
  if (
    outcome.ok &&
    cost &&
    !sameAmount(
      cost.total,
      cost.perStep.reduce((sum, s) => sum + (s.cost ?? 0), 0),
    )
  )
    problems.push(`field "cost.total" (${cost.total}) is not the sum of "cost.perStep"'s costs`);
  if (problems.length === 0) return;
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length - shown.length;
  throw new SnapshotError(
    `The snapshot is not a valid run snapshot: ${shown.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}. Resume from a snapshot as a run returned it (run.snapshot or error.snapshot), unchanged`,
  );
}

const BRANCH_FAILURE = /must match "(then|else)" schema$/;

/** Whether two sums of the same USD amounts agree, but for rounding (they were added in another order). */
function sameAmount(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}
