import { constants } from "node:buffer";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { createPrivateFile, makePrivateFolder } from "../../local/private-files.js";
import { openRegularFile } from "../../local/regular-file.js";
import type { Cassette } from "./cassette.js";
import { CassetteError } from "./cassette-errors.js";
import { checkCassette } from "./cassette-schema.js";
import { describeCut, readCutCassette, type CassetteCut } from "./cassette-text.js";
import { rememberChecked } from "./checked-cassettes.js";

/** The `process.emitWarning` code of a cassette read up to a cut at its end (see `readCassette`). */
const CASSETTE_CUT_WARNING = "ENTITY_TOOLS_CASSETTE_CUT";

/**
 * The largest cassette file read: the longest text Node can hold (about 512 MiB). A larger file is refused
 * before it is read, rather than read whole into memory to fail there.
 */
const MAX_CASSETTE_BYTES = constants.MAX_STRING_LENGTH;

/** A byte order mark (a file saved by some Windows editors starts with one): not part of the JSON. */
const BOM = "\uFEFF";

/**
 * Reads and checks a cassette file (what `recordModel` wrote). A file whose end was cut while a call was
 * being added to it (a recording process killed inside that write) is read up to its last whole call,
 * with a Node warning (`ENTITY_TOOLS_CASSETTE_CUT`) naming the file and what was left out; a replay that
 * asks for more fails saying so. The cassette returned is frozen: it is checked once, here, and not again
 * when it is played (a copy made to change it is checked when played).
 *
 * @throws CassetteError naming the file: unreadable, not a regular file (a FIFO or a device is not read:
 * it could block or never end), larger than a text Node can hold, not JSON, another format or version, or
 * a field that does not have the documented shape (with its path inside the file).
 */
export async function readCassette(file: string): Promise<Cassette> {
  let text: string;
  try {
    const { handle, stats } = await openRegularFile(file);
    try {
      if (stats.size > MAX_CASSETTE_BYTES)
        throw new CassetteError(file, [
          `it is ${stats.size} bytes long, more than a cassette can be (${MAX_CASSETTE_BYTES} bytes, the longest text Node holds)`,
        ]);
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof CassetteError) throw error;
    throw new CassetteError(file, [`it cannot be read (${(error as Error).message})`]);
  }
  return parseCassette(text, file);
}

/**
 * A cassette from its JSON text, read and checked as {@link readCassette} reads a file.
 *
 * @throws CassetteError as {@link readCassette} does; `file` only names the source in the message.
 */
export function parseCassette(text: string, file = "(in memory)"): Cassette {
  if (text.startsWith(BOM)) text = text.slice(BOM.length);
  let value: unknown;
  let cut: CassetteCut | undefined;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const read = readCutCassette(text);
    if (!read) throw new CassetteError(file, [`it is not JSON (${(error as Error).message})`]);
    ({ value, cut } = read);
  }
  checkCassette(value, file);
  if (cut)
    process.emitWarning(
      `The cassette ${file} was read up to step ${cut.steps}: ${describeCut(cut)} (a recording process ` +
        `killed while adding a call). A replay that asks for step ${cut.steps + 1} fails; record it again.`,
      { code: CASSETTE_CUT_WARNING },
    );
  rememberChecked(value, { file, ...(cut ? { cut } : {}) });
  return value;
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
