/** A JSON Schema document, as plain data. */
export type JsonSchema = { [keyword: string]: unknown };
