// What the model sent stays out of traces and logs unless content recording is on: a wrong handle holding
// an e-mail address is quoted in the error result the model reads, but a tool span's status message and
// the debug log say only which tool failed and how.
import { describe, expect, it } from "vitest";
import { LlmTool, PromptRunner, ToolProvider } from "entity-tools";
import { call, mockModel, text, toolResultsSeenAt } from "../support/mock-model.js";
import { memoryTracer } from "../support/span-tree.js";

const EMAIL = "jane.doe@example.com";

@ToolProvider({ prefix: "client" })
class Client {
  constructor(public id: string) {}
  @LlmTool("Email this client")
  email(): string {
    return `mailed ${this.id}`;
  }
}

class Clients {
  @LlmTool("Find a client")
  find(): Client {
    return new Client("c1");
  }
}

function runner(model: ReturnType<typeof mockModel>) {
  return new PromptRunner({ model })
    .withTools(new Clients())
    .withToolProviderDiscovery({ binding: "handles", classes: [Client] });
}

const wrongHandle = () => mockModel(call("client_email", { handle: EMAIL }), text("sorry"));

describe("a failed call's message in traces and logs", () => {
  it("without recordContent the span status says which tool failed and how, not what the model sent", async () => {
    const { tracer, spans } = memoryTracer();
    const model = wrongHandle();
    await runner(model).withTelemetry({ tracer }).run("mail jane");
    expect(toolResultsSeenAt(model, 1)[0]).toContain(EMAIL); // the model still reads what was wrong
    const span = spans().find((s) => s.name === "execute_tool client_email")!;
    expect(span.status.message).toBe(
      'Tool "client_email" failed (invalid-input): the arguments were refused',
    );
    expect(JSON.stringify([span.attributes, span.status, span.events])).not.toContain(EMAIL);
  });

  it("with recordContent the status carries the message", async () => {
    const { tracer, spans } = memoryTracer();
    await runner(wrongHandle()).withTelemetry({ tracer, recordContent: true }).run("mail jane");
    const span = spans().find((s) => s.name === "execute_tool client_email")!;
    expect(span.status.message).toContain(EMAIL);
  });

  it("the debug log never carries it", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    await runner(wrongHandle()).withLogger({ info: log, warn: log, error: log }).run("mail jane");
    expect(lines.join("\n")).not.toContain(EMAIL);
    expect(lines).toContainEqual(
      expect.stringContaining('Tool "client_email" failed (invalid-input): the arguments were refused'),
    );
  });
});
