/**
 * Walking a dataset folder (shared by datasets, sync and locks), and
 * opening its small files only as regular files (see
 * `shared/regular_file.ts`).
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { checkPath, MAX_META_BYTES, readRegular, UnsafeFileError } from "../shared/regular_file.ts";
import { DatasetFileError } from "./errors.ts";

/** A partition's folder name for null (hive's convention). */
export const NULL_PART = "__HIVE_DEFAULT_PARTITION__";

/** The one file name of a dataset's part: each partition folder holds one `data.parquet`. */
export const PART_NAME = "data.parquet";

/** One parquet part of a dataset: its path and its partition values (decoded; null for null). */
export interface PartFile {
  /** The file. */
  path: string;
  /** The partition values, in the dataset's partition order. */
  values: (string | null)[];
}

/** A partition column as `_signalbook.json` declares it. */
type Partition = { name: string; dtype?: string };

/**
 * Every parquet part of the dataset at `root`, as explicit paths with
 * their partition values read from the folder names (`name=value`,
 * URL-decoded; {@link NULL_PART} is null), in the order of those values
 * (numbers by number for integer partitions: `month=9` before
 * `month=10`). Nothing is a pattern: the paths go to Polars and DuckDB as
 * they are, whatever characters the folder names hold.
 *
 * Every entry of the tree is checked on the way (one guard, see
 * `shared/regular_file.ts`): `root` must be a real folder, everything in
 * it a real folder or a regular file with a single link; a symlink (inside
 * or out), a FIFO, a device, a socket or a hard-linked file is an
 * {@link UnsafeFileError} naming it. Only the parts the dataset writes are
 * read: a parquet file outside the partition folders (`year=…/month=…/`),
 * or named otherwise than {@link PART_NAME} (`data (1).parquet`, a file
 * manager's copy) is a {@link DatasetFileError} naming it. Temporary files
 * (`*.tmp`) are checked but not listed. Without `partitions` (a folder
 * without metadata) the tree is only checked, and nothing is listed.
 */
export async function datasetParts(
  root: string,
  partitions: readonly Partition[] | null,
): Promise<PartFile[]> {
  const top = await Deno.lstat(root);
  if (top.isSymlink) throw new UnsafeFileError(root, "is a symlink");
  if (!top.isDirectory) throw new UnsafeFileError(root, "is not a folder");
  const out: PartFile[] = [];
  for (const p of await filesUnder(root, () => true)) {
    // the one guard judges each entry (one lstat); one removed meanwhile (a temporary file): skipped
    const gone = await checkPath(p).then(() => false, (e) => {
      if (e instanceof Deno.errors.NotFound) return true;
      throw e;
    });
    if (gone) continue;
    const name = basename(p);
    if (partitions && name.endsWith(".parquet")) {
      if (name !== PART_NAME) {
        throw new DatasetFileError(
          p,
          `is not a part this dataset wrote (each partition folder holds one ${PART_NAME}); ` +
            `move it out of ${root}`,
        );
      }
      out.push({ path: p, values: partitionValues(root, p, partitions) });
    }
  }
  const order = (a: PartFile, b: PartFile) => {
    for (const [i, p] of (partitions ?? []).entries()) {
      const [x, y] = [a.values[i], b.values[i]];
      if (x === y) continue;
      if (x === null || y === null) return x === null ? 1 : -1;
      const num = /Int/.test(p.dtype ?? "") && Number(x) !== Number(y);
      return num ? Number(x) - Number(y) : x < y ? -1 : 1;
    }
    return 0;
  };
  return out.sort(order);
}

/** The partition values of a part from its folders under `root`. */
function partitionValues(
  root: string,
  file: string,
  partitions: readonly Partition[],
): (string | null)[] {
  const dirs = relative(root, file).split(sep).slice(0, -1);
  const values = partitions.map((p, i) => {
    const m = /^([^=]+)=(.*)$/.exec(dirs[i] ?? "");
    if (!m || m[1] !== p.name) return undefined;
    if (m[2] === NULL_PART) return null;
    try {
      return decodeURIComponent(m[2]);
    } catch {
      return undefined;
    }
  });
  if (dirs.length !== partitions.length || values.some((v) => v === undefined)) {
    throw new DatasetFileError(
      file,
      `is not in a partition folder of this dataset (${
        partitions.map((p) => `${p.name}=…`).join("/")
      }/); a dataset is read only from its own parts`,
    );
  }
  return values as (string | null)[];
}

/**
 * Every entry under `dir` (recursively) that is not a folder and whose name
 * passes `keep`, sorted; none when `dir` is missing. Links are listed, never
 * followed.
 */
export async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((e) => {
    if ((e as { code?: string })?.code === "ENOENT") return [];
    throw e;
  });
  return entries.filter((e) => !e.isDirectory() && keep(e.name))
    .map((e) => join(e.parentPath, e.name)).sort();
}

/** The text of a small regular file (see {@link readRegular}); at most `maxBytes` are read. */
export async function readSmallText(path: string, maxBytes = MAX_META_BYTES): Promise<string> {
  return new TextDecoder().decode(await readRegular(path, maxBytes));
}
