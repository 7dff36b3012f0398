// A 1×1 PNG, for tests that send a picture through a provider's wire format.
export const TINY_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
export const TINY_PNG = Buffer.from(TINY_PNG_BASE64, "base64");
