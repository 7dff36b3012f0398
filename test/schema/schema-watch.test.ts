// `entity-tools schemas --watch` as a user runs it, in its own process: the module is written, written
// again when a tool's parameter type changes, kept (with the error's file, line and column printed) while
// a source has a syntax error, and left alone when a change means nothing to it. Each step waits for
// the line the CLI prints, never for a time.
import { spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { readModuleMeaning } from "../../src/schema/module-meaning.js";
import { scratchProject } from "../support/scratch-project.js";

const TOOLS = `declare function LlmTool(d: string): MethodDecorator;
export class Counter {
  @LlmTool("Count up") count(step: number): string { return String(step); }
}
`;

/** The CLI's output so far, and a wait for the next line (after those already taken) that matches. */
function outputOf(child: ReturnType<typeof spawn>) {
  let text = "";
  let taken = 0;
  const waiting: (() => void)[] = [];
  const read = (chunk: Buffer) => {
    text += chunk.toString();
    for (const wake of waiting.splice(0)) wake();
  };
  child.stdout!.on("data", read);
  child.stderr!.on("data", read);
  return {
    next: (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const look = () => {
          const lines = text.split("\n");
          for (let i = taken; i < lines.length - 1; i++) {
            if (!pattern.test(lines[i]!)) continue;
            taken = i + 1;
            return resolve(lines[i]!);
          }
          if (child.exitCode !== null) return reject(new Error(`the CLI exited:\n${text}`));
          waiting.push(look);
        };
        child.once("exit", () => waiting.includes(look) && look());
        look();
      }),
  };
}

const parameterSchema = (out: string) => {
  const meaning = readModuleMeaning(readFileSync(out, "utf8")) as {
    tools: Record<string, { inputSchema: { properties: Record<string, unknown> } }>;
  };
  return meaning.tools["Counter.count"]?.inputSchema.properties.step;
};

it("--watch writes the module again when a parameter's type changes, and keeps the last good one on a syntax error", async () => {
  const dir = scratchProject({ "src/tools.ts": TOOLS }, "src");
  const source = path.join(dir, "src", "tools.ts");
  const out = path.join(dir, "src", "generated", "tool-schemas.ts"); // inside the watched project
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli.ts",
      "schemas",
      "--watch",
      "--project",
      path.join(dir, "tsconfig.json"),
      "--out",
      out,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const output = outputOf(child);
  try {
    await output.next(/^watching /);
    expect(parameterSchema(out)).toEqual({ type: "number" });

    writeFileSync(source, TOOLS.replace("step: number", "step: string"));
    expect(await output.next(/wrote|error/)).toBe(`wrote ${out}`);
    expect(parameterSchema(out)).toEqual({ type: "string" });

    writeFileSync(source, `${TOOLS.replace("step: number", "step: string")}export class Broken {\n`);
    expect(await output.next(/wrote|error/)).toBe(
      `entity-tools schemas: syntax error in the project: ${source}:6:1: '}' expected. (kept the last good ${out})`,
    );
    expect(parameterSchema(out)).toEqual({ type: "string" });

    // A type the CLI refuses (G28; typescript-json-schema's own `Not supported: root type undefined`
    // before, reported the same way): reported naming the parameter, module kept.
    writeFileSync(source, TOOLS.replace("step: number", "step: void"));
    const refused = await output.next(/wrote|kept the last good/);
    expect(refused.startsWith(`entity-tools schemas: ${source}:`)).toBe(true);
    expect(refused).toContain(': Counter.count parameter "step" has type void, which is void: ');
    expect(refused.endsWith(`(kept the last good ${out})`)).toBe(true);
    expect(parameterSchema(out)).toEqual({ type: "string" });

    // Fixed, and changed in a way the schemas do not see: the module is not written again.
    const written = statSync(out).mtimeMs;
    writeFileSync(source, `${TOOLS.replace("step: number", "step: string")}export class Broken {}\n`);
    expect(await output.next(/wrote|error|up to date/)).toBe(`${out} is up to date`);
    expect(statSync(out).mtimeMs).toBe(written);
  } finally {
    child.kill();
  }
}, 600_000); // a compiler in a child process: minutes on a loaded machine, but never a hang
