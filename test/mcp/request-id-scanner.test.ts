// The id of a request read from a line too long to keep (over stdio, `McpStdioServerTransport`): read from
// bytes in any chunks, wherever the id sits, and only the object's own `id` of a request.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RequestIdScanner } from "../../src/mcp/request-id-scanner.js";

/** The id the scanner reads from `text` given in chunks that end at `cuts`. */
function scanned(text: string, cuts: readonly number[] = []): unknown {
  const bytes = Buffer.from(text);
  const scanner = new RequestIdScanner();
  let from = 0;
  for (const cut of [...cuts.filter((c) => c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    scanner.feed(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return scanner.requestId();
}

describe("RequestIdScanner", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"ping"}', 1],
    ['{"method":"tools/call","params":{"id":9,"method":"x"},"jsonrpc":"2.0","id":"a\\"b"}', 'a"b'],
    [' { "method" : "ping" , "id" : -3 } ', -3],
    ['{"jsonrpc":"2.0","id":7,"result":{"id":1,"method":"x"}}', undefined], // a response
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', undefined],
    ['{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}', undefined],
    ['{"jsonrpc":"2.0","id":1,"method":7}', undefined],
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', undefined], // a batch
    ['"id"', undefined],
    ['{"params":{"text":"ü \\\\ \\" , } :"},"method":"ping","id":2}', 2],
    ['{"method":"ping","id":12', undefined], // cut: the number may go on
  ])("%s: %s", (line, id) => {
    expect(scanned(line)).toEqual(id);
    // Byte by byte, the same.
    expect(scanned(line, [...Array(Buffer.byteLength(line)).keys()])).toEqual(id);
  });

  it("reads what JSON.parse reads, for any object in any chunks", () => {
    const scalar = fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 })),
        fc.option(scalar),
        fc.option(scalar),
        fc.array(fc.nat({ max: 300 })),
        (rest, id, method, cuts) => {
          const object: Record<string, unknown> = { ...rest };
          if (id !== null) object.id = id;
          if (method !== null) object.method = method;
          const text = JSON.stringify(object);
          const parsed = JSON.parse(text) as { id?: unknown; method?: unknown };
          const expected =
            typeof parsed.method === "string" &&
            (typeof parsed.id === "string" || typeof parsed.id === "number")
              ? parsed.id
              : undefined;
          expect(scanned(text, cuts)).toEqual(expected);
        },
      ),
    );
  });
});
