import "../fixtures/register.js";
import { describe, expect, it } from "vitest";
import {
  EntityHandleCodec,
  HandleBindings,
  handleToolsOf,
  InvalidSettingError,
  LlmTool,
  ToolProvider,
  type AnyTool,
} from "entity-tools";
import { bindProviderTools, instanceKeyOf } from "entity-tools/building-blocks";
import { Customer, OrderRepository } from "../fixtures/shop.js";

@ToolProvider({ prefix: "acct" })
class Account {
  constructor(public id: string | number | bigint) {}

  @LlmTool({
    description: "Rename this account",
    parameters: {
      type: "object",
      properties: { handle: { type: "string" }, name: { type: "string" } },
      required: ["handle"],
    },
  })
  rename(handle: string, name?: string): string {
    return `${String(this.id)} renamed to ${handle}${name ? ` / ${name}` : ""}`;
  }
}

@ToolProvider({ prefix: "acct" })
class AccountArchive {
  constructor(public id: string) {}

  @LlmTool("Restore this archived account")
  restore(): string {
    return `restored ${this.id}`;
  }
}

const context = { toolCallId: "call-1", signal: new AbortController().signal };
const run = (tool: AnyTool, input: object) => tool.execute(input as never, context);

describe("the handle codec", () => {
  const codec = new EntityHandleCodec("key-1-of-the-handle-tests");

  it("mints a readable handle per (class, typed id): text, number and bigint ids are different providers", () => {
    const text = codec.handleOf(new Account("1"));
    const number = codec.handleOf(new Account(1));
    const big = codec.handleOf(new Account(1n));
    expect(text).toMatch(/^Account:1~[\w-]{22}$/);
    expect(number).toMatch(/^Account#1~[\w-]{22}$/);
    expect(big).toMatch(/^Account#1n~[\w-]{22}$/);
    expect(codec.read(text)).toMatchObject({
      ok: true,
      className: "Account",
      instanceKey: "string:1",
      id: "1",
    });
    expect(codec.read(number)).toMatchObject({ ok: true, instanceKey: "number:1", id: 1 });
    expect(codec.read(big)).toMatchObject({ ok: true, instanceKey: "bigint:1", id: "1" });
  });

  it("keeps ids with _, :, ~ and classes that share a prefix apart", () => {
    const odd = codec.handleOf(new Account("a_b:c~d"));
    expect(codec.read(odd)).toMatchObject({ ok: true, instanceKey: "string:a_b:c~d" });
    const archive = codec.handleOf(new AccountArchive("a_b:c~d"));
    expect(archive).not.toBe(odd);
    expect(codec.read(archive)).toMatchObject({ ok: true, className: "AccountArchive" });
  });

  it("refuses a changed handle, another key's, and text that is not a handle, saying which", () => {
    const handle = codec.handleOf(new Account("c1"));
    const forged = handle.replace("Account:c1", "Account:c2");
    expect(codec.read(forged)).toMatchObject({ ok: false, problem: "signature" });
    expect(new EntityHandleCodec("key-2-of-the-handle-tests").read(handle)).toMatchObject({
      ok: false,
      problem: "signature",
    });
    expect(new EntityHandleCodec().read(handle)).toMatchObject({ ok: false, problem: "signature" });
    const signature = `~${"!".repeat(22)}`; // 22 characters, not base64url: no signature at all
    for (const bad of [
      "c1",
      "Account:c1",
      `Account#x1~${"a".repeat(22)}`,
      42,
      null,
      `:c1~${"a".repeat(22)}`,
      `Account:c1${signature}`,
    ])
      expect(codec.read(bad)).toMatchObject({ ok: false, problem: "malformed" });
    // A number id spelled another way is not the id the handle was minted with.
    const number = codec.handleOf(new Account(42));
    for (const spelling of ["042", "4.2e1", "0x2a"])
      expect(codec.read(number.replace("#42~", `#${spelling}~`))).toMatchObject({
        ok: false,
        problem: "malformed",
      });
    expect(codec.read("Account:c1").ok === false && codec.read("Account:c1")).toMatchObject({
      message: expect.stringContaining("pass one exactly as a tool result gave it"),
    });
  });

  it("reads a handle as the one ProviderIdentity, mints from one, and still takes the old { className, instanceKey }", () => {
    for (const [id, identity] of [
      ["1", { providerClass: "Account", id: "1", idType: "string" }],
      [1, { providerClass: "Account", id: 1, idType: "number" }],
      [-0, { providerClass: "Account", id: 0, idType: "number" }], // -0 is 0 (see identityOf)
      [12345678901234567890n, { providerClass: "Account", id: "12345678901234567890", idType: "bigint" }],
    ] as const) {
      const account = new Account(id);
      const handle = codec.handleOf(account);
      expect(codec.read(handle)).toMatchObject({ ok: true, handle, ...identity });
      expect(codec.mint(identity)).toBe(handle);
      const old = { className: "Account", instanceKey: instanceKeyOf(identity) };
      expect(codec.mint(old)).toBe(handle);
      expect(codec.read(handle)).toMatchObject(old);
      expect(bindProviderTools(account)[0]!.origin?.identity).toEqual(identity);
      expect(new HandleBindings(codec).remember(account)).toMatchObject({ handle, identity });
    }
    expect(instanceKeyOf({ id: -0, idType: "number" })).toBe("number:0");
  });

  it("reads back the handle of a class with a non-ASCII name", () => {
    const handle = codec.mint({ className: "Kündé", instanceKey: "string:k1" });
    expect(codec.read(handle)).toMatchObject({ ok: true, className: "Kündé", id: "k1" });
  });

  it("the same key accepts another codec's handles; an empty key is refused", () => {
    const handle = codec.handleOf(new Account(7));
    expect(new EntityHandleCodec(Buffer.from("key-1-of-the-handle-tests")).read(handle)).toMatchObject({
      ok: true,
      id: 7,
    });
    expect(() => new EntityHandleCodec("")).toThrow(InvalidSettingError);
  });
});

describe("handle tools", () => {
  const codec = new EntityHandleCodec("key-1-of-the-handle-tests");

  it("one tool per method, <prefix>_<method>, the method's schema plus a required handle property", () => {
    const bindings = new HandleBindings(codec);
    const tools = handleToolsOf(Customer, bindings);
    expect(tools.map((t) => t.name)).toEqual([
      "customer_getAverageSpend",
      "customer_recentOrders",
      "customer_findOrders",
    ]);
    expect(Object.keys(tools[1]!.inputSchema.properties)).toEqual(["handle", "limit"]);
    expect(tools[1]!.inputSchema.required).toEqual(["handle"]);
    expect(tools[2]!.inputSchema.required).toEqual(["handle", "statuses"]);
  });

  it("a method with a parameter named handle gets _handle, and keeps its own parameter", async () => {
    const bindings = new HandleBindings(codec);
    const [rename] = handleToolsOf(Account, bindings);
    expect(Object.keys(rename!.inputSchema.properties)).toEqual(["_handle", "handle", "name"]);
    const { handle } = bindings.remember(new Account("a1"));
    expect(await run(rename!, { _handle: handle, handle: "x", name: "y" })).toBe("a1 renamed to x / y");
  });

  it("runs on the newest live instance of the handle's identity", async () => {
    const bindings = new HandleBindings(codec);
    const [, recent] = handleToolsOf(Customer, bindings);
    const first = bindings.remember(new Customer("c1", "Ann", new OrderRepository()));
    const second = bindings.remember(new Customer("c1", "Ann B.", new OrderRepository()));
    expect(second).toMatchObject({ handle: first.handle, replaced: true, known: false });
    expect(await run(recent!, { handle: first.handle, limit: 1 })).toHaveLength(1);
  });

  it("refuses another class's handle before anything runs, and names the class", () => {
    const bindings = new HandleBindings(codec);
    const [restore] = handleToolsOf(AccountArchive, bindings);
    const { handle } = bindings.remember(new Account("a1"));
    expect(restore!.checkInput!({ handle })).toContain(
      "is of class Account, and this tool takes handles of class AccountArchive",
    );
  });

  it("suggests the closest handle of this run for a mistyped one", () => {
    const bindings = new HandleBindings(codec);
    const [restore] = handleToolsOf(AccountArchive, bindings);
    const { handle } = bindings.remember(new AccountArchive("x1"));
    expect(restore!.checkInput!({ handle: handle.slice(0, -1) })).toContain(`did you mean "${handle}"`);
  });

  describe("a valid handle this run has not seen", () => {
    const handle = new EntityHandleCodec("key-1-of-the-handle-tests").handleOf(new AccountArchive("z9"));

    it("is re-bound through resolveProvider with the class's source name and the id", async () => {
      const asked: unknown[] = [];
      const bindings = new HandleBindings(codec, async (cls, id) => {
        asked.push([cls, id]);
        return new AccountArchive(String(id));
      });
      const [restore] = handleToolsOf(AccountArchive, bindings);
      expect(await run(restore!, { handle })).toBe("restored z9");
      expect(await run(restore!, { handle })).toBe("restored z9");
      expect(asked).toEqual([["AccountArchive", "z9"]]); // then it is live in this run
    });

    it.each([
      ["no resolver", undefined, "no resolveProvider was given"],
      ["nothing returned", () => undefined, "resolveProvider returned nothing"],
      [
        "another class",
        () => new Account("z9"),
        "returned an object of class Account, not of class AccountArchive",
      ],
      ["another id", () => new AccountArchive("z8"), 'returned the one with id "z8", not "z9"'],
      [
        "a throw",
        () => Promise.reject(new Error("db down")),
        "resolveProvider failed (the operator can see why)",
      ],
    ])("is refused with %s, and the method does not run", async (_, resolver, why) => {
      const bindings = new HandleBindings(codec, resolver);
      const [restore] = handleToolsOf(AccountArchive, bindings);
      await expect(run(restore!, { handle })).rejects.toThrow(why);
    });

    it("refused for a throw, says the entity could not be loaded, not what was thrown (its cause's cause)", async () => {
      const thrown = new Error("db down");
      const [restore] = handleToolsOf(
        AccountArchive,
        new HandleBindings(codec, () => Promise.reject(thrown)),
      );
      const error = await Promise.resolve(run(restore!, { handle })).then(
        () => new Error("it ran"),
        (e: unknown) => e as Error,
      );
      expect(error.message).toContain('AccountArchive "z9" could not be loaded');
      expect(error.message).not.toContain("db down");
      expect((error.cause as Error | undefined)?.cause).toBe(thrown);
    });
  });
});
