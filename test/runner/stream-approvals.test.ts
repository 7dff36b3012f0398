// A paused streamed run in the AI SDK UI protocol: the gated call shows as an approval request
// (`approval-requested`, what useChat's addToolApprovalResponse answers), and resumeStream continues the
// same assistant message with the decided call's output, as the SDK's own client reads it.
import "../fixtures/store/register.js";
import { readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { defineTool, type RunStreamPart } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";
import { CustomerSearchTools } from "../fixtures/store/customer-search-tools.js";

const refunds: string[] = [];
const refund = defineTool<{ amount: number }>({
  name: "refund",
  description: "Refund an amount",
  inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  needsApproval: true,
  execute: ({ amount }) => {
    refunds.push(`refund ${amount}`);
    return `refunded ${amount}`;
  },
});

function scripted() {
  const fake = new FakePromptRunner();
  fake
    .callTool("searchCustomer", { name: "John Smith" })
    .callTool("refund", { amount: 20 })
    .respondWithText("Done.");
  return { fake, runner: fake.withTools(new CustomerSearchTools(), refund).withToolProviderDiscovery() };
}

async function lastMessage(stream: ReadableStream, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, message })) last = m;
  return structuredClone(last!);
}

const toolParts = (message: UIMessage) =>
  message.parts.flatMap((p) =>
    p.type === "dynamic-tool" ? [{ toolName: p.toolName, state: p.state, approval: p.approval }] : [],
  );

describe("approvals in the UI message stream", () => {
  it("a paused run's call is an approval request; resumeStream continues the message with its output after approval", async () => {
    refunds.length = 0;
    const { runner } = scripted();
    const paused = runner.stream("Refund John 20");
    const message = await lastMessage(paused.toUIMessageStream());
    const run = await paused.result;
    expect(toolParts(message)).toEqual([
      { toolName: "searchCustomer", state: "output-available", approval: undefined },
      {
        toolName: "refund",
        state: "approval-requested",
        approval: { id: run.pendingApprovals[0]!.approvalId },
      },
    ]);
    expect(refunds).toEqual([]);

    // What useChat's addToolApprovalResponse sends back, decided here as the server reads it.
    const resumed = runner.resumeStream(run.snapshot, {
      approvals: { [run.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    const after = await lastMessage(resumed.toUIMessageStream({ originalMessages: [message] }), message);
    expect(toolParts(after).map((p) => [p.toolName, p.state])).toEqual([
      ["searchCustomer", "output-available"],
      ["refund", "output-available"],
    ]);
    expect(after.parts.flatMap((p) => (p.type === "text" ? [p.text] : []))).toEqual(["Done."]);
    expect(refunds).toEqual(["refund 20"]);
    expect((await resumed.result).result).toBe("Done.");
  });

  it("denied: the part ends in output-denied and nothing runs", async () => {
    refunds.length = 0;
    const { runner } = scripted();
    const paused = runner.stream("Refund John 20");
    const message = await lastMessage(paused.toUIMessageStream());
    const run = await paused.result;
    const resumed = runner.resumeStream(run.snapshot, {
      approvals: { [run.pendingApprovals[0]!.approvalId]: { approved: false, reason: "no" } },
    });
    const after = await lastMessage(resumed.toUIMessageStream({ originalMessages: [message] }), message);
    expect(toolParts(after).at(-1)).toMatchObject({ toolName: "refund", state: "output-denied" });
    expect(refunds).toEqual([]);
  });

  it("resumeStream has the same parts as stream(): the decided call's result, then the model's steps, then finish", async () => {
    const { runner } = scripted();
    const run = await runner.run("Refund John 20");
    const parts: RunStreamPart[] = [];
    const resumed = runner.resumeStream(run.snapshot, {
      approvals: { [run.pendingApprovals[0]!.approvalId]: { approved: true } },
    });
    for await (const part of resumed.parts) parts.push(part);
    expect(parts.map((p) => (p.type === "text-delta" ? "text" : p.type))).toEqual([
      "tool-result",
      "text",
      "step-finish",
      "finish",
    ]);
    expect(parts[0]).toMatchObject({
      type: "tool-result",
      toolName: "refund",
      output: "refunded 20",
      isError: false,
    });
    expect(parts.at(-1)).toEqual({ type: "finish", result: await resumed.result });
  });

  it("a paused streamed run lists each pending call as a tool-approval-request part before finish", async () => {
    const { runner } = scripted();
    const stream = runner.stream("Refund John 20");
    const parts: RunStreamPart[] = [];
    for await (const part of stream.parts) parts.push(part);
    const run = await stream.result;
    expect(parts.at(-2)).toEqual({
      type: "tool-approval-request",
      approvalId: run.pendingApprovals[0]!.approvalId,
      toolCallId: run.pendingApprovals[0]!.approvalId,
      toolName: "refund",
      input: { amount: 20 },
    });
  });
});
