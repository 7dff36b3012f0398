// A tool call's arguments parsed as the AI SDK parses them (issue 46 made the parse the SDK's own way:
// plainly, then searched only when the text holds a suspect key): prototype keys are refused wherever they
// are and however they are written; anything else is the plain parse.
import { InvalidToolInputError } from "ai";
import { describe, expect, it } from "vitest";
import { parseToolCall } from "../../src/adapters/step-content.js";

const offered = new Set(["echo"]);
const parse = (input: string) => parseToolCall({ toolCallId: "c1", toolName: "echo", input }, offered);

describe("parseToolCall", () => {
  it.each([
    ['{"__proto__":{"polluted":true}}'],
    ['{"\\u005f\\u005fproto\\u005F\\u005F":{}}'],
    ['{"__proto__" : 1}'],
    ['{"a":[{"b":{"__proto__":1}}]}'],
    ['{"constructor":{"prototype":{"polluted":true}}}'],
    ['{"a":{"\\u0063onstructor":{"prototype":{}}}}'],
  ])("refuses %s as the SDK does", (input) => {
    const call = parse(input);
    expect(call.invalid).toBe(true);
    expect(InvalidToolInputError.isInstance(call.error)).toBe(true);
    expect(call.input).toBe(input);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['{"text":"__proto__"}', { text: "__proto__" }],
    ['{"constructor":"x"}', { constructor: "x" }],
    ['{"constructor":{"name":"x"}}', { constructor: { name: "x" } }],
    ['{"a":[1,{"b":[true,null]}]}', { a: [1, { b: [true, null] }] }],
    ["  ", {}],
  ])("parses %s plainly", (input, value) => {
    const call = parse(input);
    expect(call.invalid).toBeUndefined();
    expect(call.input).toEqual(value);
  });

  it("keeps malformed JSON as the raw text, refused", () => {
    const call = parse('{"text":');
    expect(call).toMatchObject({ invalid: true, input: '{"text":' });
    expect(InvalidToolInputError.isInstance(call.error)).toBe(true);
  });
});
