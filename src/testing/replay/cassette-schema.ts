// A cassette comes from a file someone may have edited: it is checked whole, against one JSON schema,
// before any of it is played, so a missing or mistyped field is a `CassetteError` naming the file and the
// path inside it, never a TypeError in the middle of a replayed run.
import type { JsonSchema } from "../../schema/json-schema.js";
import { validateAgainst } from "../../schema/validate.js";
import { CASSETTE_FORMAT, CASSETTE_VERSION, READABLE_CASSETTE_VERSIONS, type Cassette } from "./cassette.js";
import { CassetteError } from "./cassette-errors.js";
import { partType } from "./cassette-part-types.js";

const TEXT = { type: "string" } as const;
const OBJECT = { type: "object" } as const;
/** A content or stream part: a `type`, and for a tool call the fields a replay reads. */
const PART = {
  type: "object",
  required: ["type"],
  properties: { type: { type: "string", minLength: 1 } },
  if: { properties: { type: { const: "tool-call" } } },
  then: {
    required: ["type", "toolCallId", "toolName", "input"],
    properties: { toolCallId: TEXT, toolName: { type: "string", minLength: 1 }, input: TEXT },
  },
} as const;

/** The JSON schema of a cassette of every version this package replays (see `Cassette`). */
export const CASSETTE_SCHEMA: JsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "entity-tools cassette",
  type: "object",
  required: ["format", "version", "model", "steps"],
  properties: {
    format: { const: CASSETTE_FORMAT },
    version: { enum: READABLE_CASSETTE_VERSIONS },
    model: {
      type: "object",
      required: ["provider", "modelId", "specificationVersion"],
      properties: { provider: TEXT, modelId: TEXT, specificationVersion: TEXT },
    },
    steps: { type: "array", items: { $ref: "#/definitions/step" } },
  },
  definitions: {
    step: {
      type: "object",
      required: ["step", "request", "response"],
      properties: {
        step: { type: "integer", minimum: 1 },
        request: {
          type: "object",
          required: ["tools"],
          properties: { tools: { type: "array", items: TEXT }, failed: { type: "array", items: TEXT } },
        },
        response: { $ref: "#/definitions/response" },
      },
    },
    response: {
      type: "object",
      required: ["kind"],
      properties: { kind: { enum: ["generate", "stream"] } },
      if: { properties: { kind: { const: "generate" } } },
      then: {
        required: ["kind", "content", "finishReason", "usage", "warnings"],
        properties: {
          content: { type: "array", items: PART },
          finishReason: { type: "object", required: ["unified"], properties: { unified: TEXT } },
          usage: {
            type: "object",
            required: ["inputTokens", "outputTokens"],
            properties: { inputTokens: OBJECT, outputTokens: OBJECT },
          },
          providerMetadata: OBJECT,
          response: OBJECT,
          warnings: { type: "array", items: OBJECT },
        },
      },
      else: { required: ["kind", "parts"], properties: { parts: { type: "array", items: PART } } },
    },
  },
};

const MAX_PROBLEMS = 5;
/** The `process.emitWarning` code of a cassette with part types a replay does not know (see `checkCassette`). */
const UNKNOWN_PART_WARNING = "ENTITY_TOOLS_CASSETTE_UNKNOWN_PART";
const BRANCH_FAILURE = /must match "(then|else)" schema$/;

/**
 * Checks that `value` is a cassette this version of entity-tools replays, whole, before any of it is used.
 * Part types it does not know (a newer provider spec's) are played as recorded, with a Node warning
 * (`ENTITY_TOOLS_CASSETTE_UNKNOWN_PART`) naming each and where it first is.
 *
 * @throws CassetteError naming `file` and the format, the version, or up to five paths that do not fit.
 */
export function checkCassette(value: unknown, file: string): asserts value is Cassette {
  const record = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  if (record?.format !== CASSETTE_FORMAT)
    throw new CassetteError(file, [`it is not a cassette (field "format" must be "${CASSETTE_FORMAT}")`]);
  if (!READABLE_CASSETTE_VERSIONS.includes(record.version as number))
    throw new CassetteError(file, [
      `field "version" is ${JSON.stringify(record.version)}: this entity-tools replays format version ` +
        `${READABLE_CASSETTE_VERSIONS.join(", ")} (and records ${CASSETTE_VERSION})`,
    ]);
  const outcome = validateAgainst(CASSETTE_SCHEMA, value);
  const problems = outcome.ok ? [] : outcome.problems.filter((p) => !BRANCH_FAILURE.test(p));
  /** Each part type a replay does not know, with where it first is. */
  const unknown = new Map<string, string>();
  if (problems.length === 0) {
    const steps = (value as Cassette).steps;
    for (const [index, step] of steps.entries()) {
      if (step.step !== index + 1)
        problems.push(
          `field "steps.${index}.step" is ${step.step}, but steps are numbered 1, 2, 3… in order`,
        );
      const { response } = step;
      const [key, parts] =
        response.kind === "generate" ? ["content", response.content] : ["parts", response.parts];
      for (const [at, part] of parts.entries()) {
        const type = String(part.type);
        const read = partType(type);
        const place = `steps.${index}.response.${key}.${at}`;
        if (read === "unknown") {
          if (!unknown.has(type)) unknown.set(type, place);
        } else if (read !== "known")
          problems.push(`field "${place}.type" is "${type}": did you mean "${read.meant}"?`);
      }
    }
  }
  if (problems.length === 0) return warnOfUnknownParts(file, unknown);
  throw new CassetteError(file, atMost(problems));
}

/**
 * Says which part types of a cassette this version does not know: they are played as recorded (see
 * cassette-part-types.ts), so a test that replays one can see that the AI SDK reads them, not us.
 */
function warnOfUnknownParts(file: string, unknown: ReadonlyMap<string, string>): void {
  if (unknown.size === 0) return;
  const named = atMost([...unknown].map(([type, place]) => `"${type}" (first at ${place})`));
  process.emitWarning(
    `The cassette ${file} has parts of a type this entity-tools does not know: ${named.join(", ")}. ` +
      "They are played as recorded, for the AI SDK to read (a newer provider spec's types); an AI SDK " +
      "that does not know one either drops it, and the run may not go as recorded. Update entity-tools, " +
      "or check that the replayed run is the recorded one.",
    { code: UNKNOWN_PART_WARNING },
  );
}

/** The first five of `lines`, and how many more there are. */
function atMost(lines: readonly string[]): string[] {
  const shown = lines.slice(0, MAX_PROBLEMS);
  const more = lines.length - shown.length;
  return more > 0 ? [...shown, `and ${more} more`] : shown;
}
