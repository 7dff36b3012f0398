// Makes the examples' generated schemas (npm run schemas) available before any tool is bound.
import { registerToolSchemas } from "entity-tools";
import { toolSchemas } from "./generated/tool-schemas.js";

registerToolSchemas(toolSchemas);
