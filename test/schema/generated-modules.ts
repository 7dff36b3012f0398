/** Every generated schema module committed in this repository, with the project it comes from. */
export const GENERATED_MODULES = [
  { project: "test/fixtures/tsconfig.json", out: "test/fixtures/generated/tool-schemas.ts", types: [] },
  {
    project: "test/fixtures/store/tsconfig.json",
    out: "test/fixtures/store/generated/tool-schemas.ts",
    types: ["SpendAnswer", "OrderSummary"],
  },
  { project: "examples/tsconfig.json", out: "examples/generated/tool-schemas.ts", types: [] },
  {
    project: "examples/nest-style/tsconfig.json",
    out: "examples/nest-style/src/generated/tool-schemas.ts",
    types: [],
  },
  {
    project: "test/fixtures/standard-decorators/tsconfig.json",
    out: "test/fixtures/standard-decorators/src/generated/tool-schemas.ts",
    types: [],
  },
  {
    project: "test/fixtures/contexts/tsconfig.json",
    out: "test/fixtures/contexts/generated/tool-schemas.ts",
    types: [],
  },
] as const;
