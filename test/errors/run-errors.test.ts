// The errors a caller sees from the runner and the testing kit: library errors with the facts needed to
// act on them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  EntityToolsError,
  PromptRunner,
  ToolLoopError,
  ToolSourceClashError,
} from "entity-tools";
import { createMcpServer } from "entity-tools/mcp";
import { FakePromptRunner, UnmetExpectationsError } from "entity-tools/testing";
import { mockModel, text } from "../support/mock-model.js";

const lookup = defineTool({ name: "lookup", description: "Looks something up", execute: () => "found" });

async function clientOffering(tool: typeof lookup): Promise<Client> {
  const server = createMcpServer({ name: "shop", version: "1.0.0", tools: [tool] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "runner", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("ToolSourceClashError", () => {
  it("is a run error carrying the conversation so far and the snapshot it continued from", async () => {
    const model = mockModel(text("hello"), text("never"));
    const runner = new PromptRunner({ model });
    const turn1 = await runner.run("first question");
    const error = await runner
      .withTools(lookup)
      .withMcpClient(await clientOffering(lookup))
      .run("second question", { continueFrom: turn1.snapshot })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolSourceClashError);
    expect(ToolLoopError.isInstance(error)).toBe(true);
    const clash = error as ToolSourceClashError;
    expect(clash.conversationHistory).toEqual(turn1.conversationHistory);
    expect(clash.snapshot).toEqual(turn1.snapshot);
    expect(clash.totalIterations).toBe(1);
    expect(model.doGenerateCalls).toHaveLength(1); // the second turn never reached the model
  });
});

describe("FakePromptRunner.verifyExpectations", () => {
  it("throws an UnmetExpectationsError listing every problem", () => {
    const fake = new FakePromptRunner().respondWithText("never played");
    const error = (() => {
      try {
        fake.verifyExpectations();
      } catch (e) {
        return e;
      }
    })();
    expect(EntityToolsError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(UnmetExpectationsError);
    expect((error as UnmetExpectationsError).name).toBe("UnmetExpectationsError");
    expect((error as UnmetExpectationsError).problems).toEqual([
      '1 scripted turn(s) were not played: text "never played"',
    ]);
  });
});
