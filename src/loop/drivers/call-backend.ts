import { modelFailure } from "../errors/errors.js";

/**
 * Runs one request to the model backend (a step, opening a conversation, a turn), reporting its failure
 * the way every driver does: see {@link modelFailure}.
 */
export async function callBackend<T>(work: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw modelFailure(error, signal);
  }
}
