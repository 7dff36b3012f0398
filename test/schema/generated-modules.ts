/** Every generated schema module committed in this repository, with the project it comes from. */
export const GENERATED_MODULES = [
  { project: "test/fixtures/tsconfig.json", out: "test/fixtures/generated/tool-schemas.ts" },
  { project: "examples/tsconfig.json", out: "examples/generated/tool-schemas.ts" },
] as const;
