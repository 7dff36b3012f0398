import "reflect-metadata";

export * from "../decorators/index.js";
export * from "./tools/index.js";
export * from "./schema/index.js";
