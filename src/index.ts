import "reflect-metadata";

export * from "../decorators/index.js";
export * from "./tools/index.js";
export * from "./schema/index.js";
export * from "./events/index.js";
export * from "./strategies/index.js";
export * from "./loop/index.js";
export * from "./adapters/index.js";
export * from "./runner/index.js";
export * from "./disclosure/index.js";
