// Cassettes a user hands `readCassette` that are not what `recordModel` wrote: a FIFO or a device (which a
// read would wait on forever, or never finish), a file larger than Node can hold as text, one saved with a
// byte order mark, a value nested deeper than a recursion goes. Each is a clear CassetteError naming the
// file, or read as it is; none hangs the process or throws a RangeError.
import { execFileSync } from "node:child_process";
import { closeSync, openSync, ftruncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CassetteError, parseCassette, readCassette } from "entity-tools/testing";
import { tempDir } from "../support/temp-dir.js";

const dir = tempDir("cassette-odd-");
const cassette = (parts: unknown[] = []) => ({
  format: "entity-tools/cassette",
  version: 1,
  model: { provider: "p", modelId: "m", specificationVersion: "v3" },
  steps: [{ step: 1, request: { tools: [] }, response: { kind: "stream", parts } }],
});

describe("readCassette on a file that is not a cassette file", () => {
  it.runIf(process.platform === "linux")(
    "refuses a FIFO and a device at once, naming what they are",
    async () => {
      const fifo = path.join(dir, "waiting.json");
      execFileSync("mkfifo", [fifo]);
      await expect(readCassette(fifo)).rejects.toThrow(
        `The cassette ${fifo} cannot be replayed: it cannot be read (${fifo} is a FIFO, not a regular file)`,
      );
      await expect(readCassette("/dev/zero")).rejects.toThrow("/dev/zero is a device, not a regular file");
      await expect(readCassette(dir)).rejects.toThrow(`${dir} is a folder, not a regular file`);
    },
  );

  it("refuses a file larger than a text Node can hold before reading it", async () => {
    const file = path.join(dir, "huge.json");
    const fd = openSync(file, "w");
    ftruncateSync(fd, 600 * 1024 * 1024); // sparse: no disk used, and never read
    closeSync(fd);
    const error = await readCassette(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CassetteError);
    expect((error as Error).message).toMatch(
      /it is 629145600 bytes long, more than a cassette can be \(\d+ bytes, the longest text Node holds\)/,
    );
  });

  it("reads a cassette saved with a byte order mark", async () => {
    const file = path.join(dir, "bom.json");
    writeFileSync(file, `\uFEFF${JSON.stringify(cassette(), null, 2)}\n`);
    expect((await readCassette(file)).steps).toHaveLength(1);
  });

  it("reads a part nested 100 000 deep (JSON allows it) without a RangeError", () => {
    const text = JSON.stringify(cassette([{ type: "x", value: "HERE" }])).replace(
      '"HERE"',
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
    );
    const read = parseCassette(text, "deep.json");
    expect(Object.isFrozen(read.steps[0]!.response)).toBe(true);
  });
});
