// entity-tools loads class-transformer lazily (not at import). A user who imports class-transformer
// and calls its instanceToPlain right after defining a class, before any run, must still not see a
// @Hidden field: this file runs nothing that would have loaded it first.
import { instanceToPlain } from "class-transformer";
import { describe, expect, it } from "vitest";
import { Hidden } from "entity-tools";

describe("@Hidden before entity-tools has used class-transformer", () => {
  it("the user's own instanceToPlain, right after the class is defined, leaves the field out", () => {
    class Session {
      @Hidden() key = "k-1";
      id = "s1";
    }
    expect(instanceToPlain(new Session())).toEqual({ id: "s1" });
  });
});
