import type { ParametersSchema } from "../../decorators/index.js";
import type { HandleIdentity, ProviderIdentity } from "./provider-identity.js";

/** A JSON Schema object describing a tool's input (always an object keyed by parameter name). */
export type ToolInputSchema = ParametersSchema;

/** What a tool's `execute` receives besides its input. */
export interface ToolExecutionContext {
  /** Id the model gave this call. */
  readonly toolCallId: string;
  /** Aborted when the run is cancelled or the tool's time limit passes: long tools should stop then. */
  readonly signal: AbortSignal;
}

/**
 * Where a bound tool comes from, so discovery can be reported and re-discovery recognised. A live binding:
 * it holds the object and its class itself (a constructor, which a snapshot cannot hold); the provider's
 * plain identity, as snapshots, handles and approvals name it, is `identity`.
 */
export interface ToolOrigin {
  /** The live object the tool is bound to. */
  readonly instance: object;
  /** Its class itself (the constructor); the class's source name is `identity.providerClass`. */
  readonly providerClass: Function;
  /** The provider's identity (`undefined` for plain tool objects, which have none). */
  readonly identity?: ProviderIdentity;
  /**
   * The provider's id as text (`undefined` for plain tool objects).
   *
   * @deprecated Read `identity.id`.
   */
  readonly instanceId?: string;
  /**
   * The id with its type (`number:1`, `string:1`), which tells ids apart that read the same as text.
   *
   * @deprecated `instanceKeyOf(identity)` gives it.
   */
  readonly instanceKey?: string;
  /** The bound method. */
  readonly methodName: string;
}

/**
 * A tool the model can call. `execute` returns the live value: the loop serializes it for the model and
 * hands the value itself to the injection strategies.
 */
export interface Tool<Input = never, Output = unknown> {
  /** The name the model calls it by (letters, digits, `_` and `-`, at most 64, first a letter or `_`). */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The JSON Schema its input must match (an object), offered to the model and checked before each call. */
  readonly inputSchema: ToolInputSchema;
  /** Runs the tool with validated (and converted) input; what it returns is serialized for the model. */
  execute(input: Input, context: ToolExecutionContext): Output | Promise<Output>;
  /** Set on tools bound to an object's `@LlmTool` method. */
  readonly origin?: ToolOrigin;
  /** The run stops before each call until it is approved (`@LlmTool({ needsApproval })`). */
  readonly needsApproval?: boolean;
  /**
   * Its result is sent whole, never cut at `withMaxResultChars`: for text the developer wrote, whose size
   * they chose (`read_section`'s, a prompt section), not data of unknown size, which the cap is for.
   */
  readonly wholeResult?: boolean;
  /**
   * A problem with a schema-valid input that the schema cannot express (a handle's signature): the call
   * then fails as invalid input before it is judged for approval, and nothing runs.
   */
  readonly checkInput?: (input: Readonly<Record<string, unknown>>) => string | undefined;
  /** Set on a handle tool: the provider class and method it calls, on the instance its handle names. */
  readonly handleTarget?: HandleTarget;
  /**
   * `"deferred"` on a discovered tool of `withToolProviderDiscovery({ delivery: "deferred" })`: offered in the
   * model provider's deferred form, when it has one, instead of in the request's tool list.
   */
  readonly delivery?: "deferred";
}

/** What a handle tool calls (see `binding: "handles"`). */
export interface HandleTarget {
  /** The provider class whose method the tool calls. */
  readonly providerClass: Function;
  /** The method it calls. */
  readonly methodName: string;
  /** The input property that carries the handle. */
  readonly parameter: string;
  /** The provider a call's input names by its handle (`undefined` for a handle that is not valid). */
  readonly providerOf?: (input: Readonly<Record<string, unknown>>) => HandleIdentity | undefined;
}

/**
 * A provider named by its class's source name and its id with the id's type (`string:c1`, `number:1`).
 *
 * @deprecated Use {@link ProviderIdentity} (`providerClass`, `id`, `idType`); `instanceKeyOf(identity)`
 * gives the `instanceKey`.
 */
export interface ProviderKey {
  /** The provider class's source name. */
  readonly className: string;
  /** The id with its type (`number:1`, `string:c1`). */
  readonly instanceKey: string;
}

/** A tool with its input type erased, as registries and strategies hold it. */
// `never` input keeps any Tool<I> assignable here without `any`: the loop validates input at run time.
export type AnyTool = Tool<never, unknown>;
