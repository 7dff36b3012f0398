import { ToolNotFoundError } from "../errors/errors.js";
import { closestNames } from "../../tools/did-you-mean.js";
import { echoed as echo } from "../../tools/echoed-text.js";

const MAX_LISTED_TOOLS = 30;
// Names longer than any valid tool name are not worth an edit-distance search (and could make it slow).
const MAX_MATCHED_NAME = 128;

/**
 * What happens when the model calls a tool that does not exist: each such call gets an error result with
 * the closest names (or, for a tool of an earlier turn whose provider could not be bound again, how to get
 * it back), and a streak of `limit` unknown calls in a row ends the run once the model has read an error
 * result of that streak: unknown calls in one message alone never end it (a model that names three
 * made-up tools at once has not been told yet which there are). A known call resets the streak.
 */
export class UnknownToolPolicy {
  private streak = 0;
  /** How much of the streak the model has read: its length when the previous message's calls ended. */
  private read = 0;
  private last = "";

  /**
   * @param lost tools of an earlier turn (a continued or resumed run) that are no longer bound, by name,
   * with the provider they belonged to (`Order "o1"`)
   */
  constructor(
    private readonly limit: number,
    private readonly lost: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** Records a call to `toolName`, found or not. */
  record(toolName: string, found: boolean): void {
    if (found) {
      this.streak = 0;
      this.read = 0;
      return;
    }
    this.streak++;
    this.last = toolName;
  }

  /**
   * Called when a message's calls have ended: the error that ends the run once the streak reaches the limit
   * and began before this message.
   */
  verdict(availableTools: readonly string[]): ToolNotFoundError | undefined {
    const told = this.read > 0;
    this.read = this.streak;
    if (this.streak < this.limit || !told) return undefined;
    return new ToolNotFoundError(echo(this.last), availableTools, this.streak);
  }

  /** The error result for an unknown `toolName`: the closest names and what is available. */
  message(toolName: string, availableTools: readonly string[]): string {
    if (toolName.trim() === "") {
      return `The tool name is empty. Available tools: ${listed(availableTools)}.`;
    }
    const owner = this.lost.get(toolName);
    if (owner !== undefined)
      return (
        `Tool "${toolName}" is no longer available: it belonged to ${owner} in an earlier turn, which could not be bound again. ` +
        `To get it back, find ${owner} again with the tool that returned it; its tools are then offered again. Available tools: ${listed(availableTools)}.`
      );
    const close = toolName.length <= MAX_MATCHED_NAME ? closestNames(toolName, availableTools) : [];
    return [
      `Unknown tool "${echo(toolName)}".`,
      close.length > 0 ? `Did you mean: ${close.join(", ")}?` : "",
      `Available tools: ${listed(availableTools)}.`,
    ]
      .filter(Boolean)
      .join(" ");
  }
}

function listed(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  return names.length > MAX_LISTED_TOOLS
    ? `${names.slice(0, MAX_LISTED_TOOLS).join(", ")}, …`
    : names.join(", ");
}
