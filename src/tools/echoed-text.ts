/** The longest text from the model that a message quotes whole. */
export const MAX_ECHOED_CHARS = 80;

/**
 * Text the model sent, as a message may quote it back: longer text is cut, with its length (a hostile
 * name or handle could be megabytes, and every copy of it would be read, logged and stored).
 */
export function echoed(text: string): string {
  return text.length <= MAX_ECHOED_CHARS
    ? text
    : `${text.slice(0, MAX_ECHOED_CHARS)}… (${text.length} characters)`;
}
