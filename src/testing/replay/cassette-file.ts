import { readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { createPrivateFile, makePrivateFolder } from "../../local/private-files.js";
import type { Cassette } from "./cassette.js";
import { CassetteError } from "./cassette-errors.js";
import { checkCassette } from "./cassette-schema.js";

/**
 * Reads and checks a cassette file (what `recordModel` wrote).
 *
 * @throws CassetteError naming the file: unreadable, not JSON, another format or version, or a field that
 * does not have the documented shape (with its path inside the file).
 */
export async function readCassette(file: string): Promise<Cassette> {
  const value = await readCassetteJson(file);
  checkCassette(value, file);
  return value;
}

/**
 * A cassette from its JSON text, checked as {@link readCassette} checks a file.
 *
 * @throws CassetteError as {@link readCassette} does; `file` only names the source in the message.
 */
export function parseCassette(text: string, file = "(in memory)"): Cassette {
  const value = parseCassetteJson(text, file);
  checkCassette(value, file);
  return value;
}

/**
 * A cassette file's JSON, not checked yet: for a reader that checks it itself (`ReplayLanguageModel`'s
 * constructor), so that a file is checked once.
 *
 * @throws CassetteError naming the file when it cannot be read or is not JSON.
 */
export async function readCassetteJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CassetteError(file, [`it cannot be read (${(error as Error).message})`]);
  }
  return parseCassetteJson(text, file);
}

function parseCassetteJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CassetteError(file, [`it is not JSON (${(error as Error).message})`]);
  }
}

/**
 * Writes a cassette's whole file `text` at once (a temporary file renamed over it), so a reader never sees
 * half of it. A cassette holds what the model said, so it is made for its owner only (0600; new folders
 * 0700), as the library's other files of users' words are.
 */
export async function writeCassetteFile(file: string, text: string): Promise<void> {
  await makePrivateFolder(path.dirname(path.resolve(file)));
  const temporary = `${file}.${process.pid}.tmp`;
  await rm(temporary, { force: true }); // left by a process that died mid-write
  const handle = await createPrivateFile(temporary);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}
