// What the Responses API mock keeps of what it answered, as the API stores a response (`store`, true unless
// the request says false): each output item by its id, which a later request may send as an
// `item_reference` (`@ai-sdk/openai` sends an earlier answer's text that way), and each response's whole
// conversation, which a request continues with `previous_response_id`. So a script reads the conversation
// the API would read, and a request naming what was never stored is refused as the API refuses it. It needs
// ids no two responses of the mock share, which is why they are numbered by the mock's requests.

import type { OpenAiRefusal } from "./openai-mock-server.js";

type Item = Readonly<Record<string, unknown>>;

/** The fields of a Responses request the store reads. */
interface StoredRequestBody {
  readonly input?: unknown;
  readonly previous_response_id?: unknown;
  readonly store?: unknown;
}

/** One mock's stored responses. */
export class ResponsesStore {
  private readonly items = new Map<string, Item>();
  private readonly conversations = new Map<string, readonly Item[]>();

  /**
   * The API's answer to a request naming what it did not store (an answer given with `store: false` is not
   * stored either): a `previous_response_id` it does not know is a 400 (`previous_response_not_found`), an
   * `item_reference` to an item it does not hold a 404, each with the API's message.
   */
  refusal(body: StoredRequestBody): OpenAiRefusal | undefined {
    const previous = body.previous_response_id;
    if (typeof previous === "string" && !this.conversations.has(previous))
      return {
        status: 400,
        message: `Previous response with id '${previous}' not found.`,
        param: "previous_response_id",
        code: "previous_response_not_found",
      };
    const missing = inputItems(body.input).find(
      (item) => item.type === "item_reference" && !this.items.has(String(item.id)),
    );
    if (!missing) return undefined;
    const unstored =
      body.store === false
        ? " Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input."
        : "";
    return {
      status: 404,
      message: `Item with id '${String(missing.id)}' not found.${unstored}`,
      param: "input",
      code: null,
    };
  }

  /**
   * The conversation a request carries, as the API reads it: the previous response's (its input, then its
   * output) when it names one, then its input (a string is one user message), each item reference replaced
   * by the item it names. What the store does not hold is left out: {@link refusal} refuses such a request.
   */
  conversationOf(body: StoredRequestBody): readonly Item[] {
    const previous =
      typeof body.previous_response_id === "string"
        ? (this.conversations.get(body.previous_response_id) ?? [])
        : [];
    const resolved = inputItems(body.input).flatMap((item) => {
      if (item.type !== "item_reference") return [item];
      const stored = this.items.get(String(item.id));
      return stored ? [stored] : [];
    });
    return [...previous, ...resolved];
  }

  /** Keeps `response` (unless its request asked not to be stored) for the requests that refer to it. */
  keep<Response extends { readonly id: string; readonly output: readonly Item[] }>(
    body: StoredRequestBody,
    conversation: readonly Item[],
    response: Response,
  ): Response {
    if (body.store === false) return response;
    for (const item of response.output) if (typeof item.id === "string") this.items.set(item.id, item);
    this.conversations.set(response.id, [...conversation, ...response.output]);
    return response;
  }
}

/**
 * A request's `input` as items: a string is one user message (as the API reads `input: "text"`), in the form
 * `@ai-sdk/openai` sends one, so a script finds a user's text in one shape whoever sent it.
 */
function inputItems(input: unknown): readonly Item[] {
  if (typeof input === "string") return [{ role: "user", content: [{ type: "input_text", text: input }] }];
  return Array.isArray(input) ? (input as Item[]) : [];
}
