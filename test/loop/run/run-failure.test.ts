// The error a run ends with is the error that was thrown: a backend's own ToolLoopError subclass reaches the
// caller as that very object (class, private fields, stack), with the run attached once.
import "../../fixtures/store/register.js";
import { describe, expect, it } from "vitest";
import {
  AiSdkAdapter,
  MaxIterationsExceededError,
  PromptRunner,
  ToolLoopAbortedError,
  ToolLoopError,
  type McpClientLike,
  type ModelAdapter,
  type ToolLoopEvent,
} from "entity-tools";
import { CustomerSearchTools } from "../../fixtures/store/customer-search-tools.js";
import { call, mockModel, text } from "../../support/mock-model.js";

/** A custom adapter's error: its status is a private field, read through a getter. */
class VendorError extends ToolLoopError {
  static override readonly errorName: string = "VendorError";
  readonly #status: number;

  constructor(status: number) {
    super(`the vendor answered ${status}`);
    this.#status = status;
  }

  get status(): number {
    return this.#status;
  }
}

describe("the error a run ends with", () => {
  it("is the custom adapter's ToolLoopError subclass itself: private field, stack and the run kept", async () => {
    const model = mockModel(call("searchCustomer", { name: "John Smith" }), text("found him"));
    const inner = new AiSdkAdapter(model);
    const thrown = new VendorError(503);
    let steps = 0;
    const flaky: ModelAdapter = {
      supportsDynamicTools: true,
      step: (request) => (steps++ === 1 ? Promise.reject(thrown) : inner.step(request)),
    };
    const events: ToolLoopEvent[] = [];
    const runner = new PromptRunner({ adapter: flaky })
      .withTools(new CustomerSearchTools())
      .withObserver((e) => events.push(e));

    const error = await runner.run("Who is John Smith?").catch((e: unknown) => e);

    expect(error).toBe(thrown);
    expect((error as VendorError).status).toBe(503); // a rebuilt copy would throw here: it never ran VendorError's constructor
    expect(VendorError.isInstance(error)).toBe(true);
    expect(thrown.stack).toContain("run-failure.test.ts");
    expect(thrown.totalIterations).toBe(2);
    expect(thrown.conversationHistory.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(events.at(-1)).toMatchObject({ type: "RunFinished", status: "failed", error: thrown });

    // The snapshot it carries resumes the run where it failed.
    const resumed = await runner.resume(thrown.snapshot!);
    expect(resumed.result).toBe("found him");
    expect(resumed.totalIterations).toBe(3);
  });

  it("of a run nested in a custom adapter carries the outer run, the one whose caller catches it", async () => {
    // The inner run fails after one step; the adapter lets its error through, as any ToolLoopError is.
    const inner = new PromptRunner({
      adapter: new AiSdkAdapter(mockModel(call("searchCustomer", { name: "John Smith" }))),
    })
      .withTools(new CustomerSearchTools())
      .withMaxToolIterations(1);
    const agent: ModelAdapter = {
      supportsDynamicTools: true,
      step: async () => (await inner.run("the inner task")) as never,
    };

    const error = await new PromptRunner({ adapter: agent })
      .run("the outer task")
      .catch((e: unknown) => e as MaxIterationsExceededError);

    expect(error).toBeInstanceOf(MaxIterationsExceededError);
    expect(error.conversationHistory).toEqual([{ role: "user", content: "the outer task" }]);
    expect(error.snapshot?.history).toEqual([{ role: "user", content: "the outer task" }]);
  });

  it("is a ToolLoopAbortedError with the conversation when the run is cancelled while its MCP tools are listed", async () => {
    const controller = new AbortController();
    // What the official SDK's client does with a request whose signal fires: it rejects with the reason.
    const client = {
      listTools: (_params: unknown, options?: { signal?: AbortSignal }) =>
        new Promise((_, reject) => {
          options?.signal?.addEventListener("abort", () => reject(options.signal!.reason));
          controller.abort();
        }),
      callTool: async () => ({}),
      setNotificationHandler: () => {},
    } as unknown as McpClientLike;
    const runner = new PromptRunner({ adapter: new AiSdkAdapter(mockModel(text("unused"))) }).withMcpClient(
      client,
    );

    const error = await runner
      .run("Who is John Smith?", { signal: controller.signal })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ToolLoopAbortedError);
    expect((error as ToolLoopAbortedError).conversationHistory).toEqual([
      { role: "user", content: "Who is John Smith?" },
    ]);
  });
});
