// Structured output is converted like typed input: the generated module says which fields of an output
// class are dates or nested classes, so the caller gets real Dates and instances in every decorator mode
// (no class-transformer @Type needed), from createObject, run({ output }) and resume.
import { describe, expect, it } from "vitest";
import { LlmTool, registerToolSchemas } from "entity-tools";
import { FakePromptRunner } from "entity-tools/testing";

class Visit {
  when!: Date;
  note!: string;
  isRecent(now: Date): boolean {
    return now.getTime() - this.when.getTime() < 86_400_000;
  }
}

class VisitReport {
  customer!: string;
  since!: Date;
  visits!: Visit[];
  latest?: Visit;
}

class Desk {
  @LlmTool({ description: "Ask a person first", needsApproval: true })
  askFirst(): string {
    return "ok";
  }
}

const visitType = { kind: "class", name: "Visit", fields: { when: { kind: "date" } } } as const;
registerToolSchemas({
  tools: {},
  outputs: {
    VisitReport: {
      type: "object",
      properties: {
        customer: { type: "string" },
        since: { type: "string", format: "date-time" },
        visits: { type: "array", items: { type: "object" } },
        latest: { type: "object" },
      },
      required: ["customer", "since", "visits"],
    },
  },
  outputTypes: {
    VisitReport: {
      kind: "class",
      name: "VisitReport",
      fields: { since: { kind: "date" }, visits: { kind: "array", items: visitType }, latest: visitType },
    },
  },
  classes: { VisitReport, Visit },
});

const answer = {
  customer: "Ada",
  since: "2026-01-02T03:04:05.000Z",
  visits: [{ when: "2026-11-20T10:00:00.000Z", note: "first" }],
  latest: { when: "2026-11-21T10:00:00.000Z", note: "second" },
};

function expectTyped(report: VisitReport | undefined): void {
  expect(report).toBeInstanceOf(VisitReport);
  expect(report!.since).toEqual(new Date("2026-01-02T03:04:05.000Z"));
  expect(report!.visits[0]).toBeInstanceOf(Visit);
  expect(report!.visits[0]!.when).toBeInstanceOf(Date);
  expect(report!.visits[0]!.isRecent(new Date("2026-11-20T12:00:00Z"))).toBe(true);
  expect(report!.latest!.when).toEqual(new Date("2026-11-21T10:00:00.000Z"));
}

describe("typed structured output", () => {
  it("createObject returns Dates and nested class instances, arrays of them included", async () => {
    const fake = new FakePromptRunner();
    fake.respondWithObject(answer);
    expectTyped(await fake.createObject(VisitReport, "Report on Ada"));
  });

  it("run({ output }) does the same", async () => {
    const fake = new FakePromptRunner();
    fake.respondWithObject(answer);
    expectTyped((await fake.run("Report on Ada", { output: VisitReport })).result);
  });

  it("resume({ output }) does the same after an approval", async () => {
    const fake = new FakePromptRunner();
    const runner = fake.withTools(new Desk());
    fake.callTool("askFirst").respondWithObject(answer);
    const paused = await runner.run("Report on Ada", { output: VisitReport });
    expect(paused.status).toBe("awaiting-approval");
    const approvalId = paused.pendingApprovals[0]!.approvalId;
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as typeof paused.snapshot;
    const done = await runner.resume(snapshot, {
      approvals: { [approvalId]: { approved: true } },
      output: VisitReport,
    });
    expectTyped(done.result);
  });

  it("absent optional and empty array fields stay as they are", async () => {
    const fake = new FakePromptRunner();
    fake.respondWithObject({ ...answer, latest: undefined, visits: [] });
    const report = await fake.createObject(VisitReport, "Report on Ada");
    expect(report.visits).toEqual([]);
    expect(report.latest).toBeUndefined();
  });
});
