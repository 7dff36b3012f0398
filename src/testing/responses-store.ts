// What the Responses API mock keeps of what it answered, as the API stores a response (`store`, true unless
// the request says false): each output item by its id, which a later request may send as an
// `item_reference` (`@ai-sdk/openai` sends an earlier answer's text that way), and each response's whole
// conversation, which a request continues with `previous_response_id`. So a script reads the conversation
// the API would read. It needs ids no two responses of the mock share, which is why they are numbered by
// the mock's requests.

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
   * The conversation a request carries, as the API reads it: the previous response's (its input, then its
   * output) when it names one, then its input, each item reference replaced by the item it names. A
   * reference or a previous response this mock did not store stays out of it (the reference is kept as sent).
   */
  conversationOf(body: StoredRequestBody): readonly Item[] {
    const previous =
      typeof body.previous_response_id === "string"
        ? (this.conversations.get(body.previous_response_id) ?? [])
        : [];
    const input = Array.isArray(body.input) ? (body.input as Item[]) : [];
    const resolved = input.map((item) =>
      item.type === "item_reference" && typeof item.id === "string"
        ? (this.items.get(item.id) ?? item)
        : item,
    );
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
