/**
 * Whether parquet files share one schema, read from their footers alone:
 * the bytes of each file's schema (field 2 of its `FileMetaData`, thrift
 * compact protocol), compared. Equal bytes are the same columns, types and
 * order; anything else (or a footer that cannot be read) counts as
 * different, which is always safe for the caller (DuckDB then reads the
 * parts with `union_by_name`). About 35 KiB are read per part (its footer)
 * and nothing is kept.
 *
 * @module
 */
import { O_RDONLY, openSafe } from "../shared/regular_file.ts";

/** Largest footer read (parquet keeps its length in 4 bytes; signalbook's parts hold 35 KiB). */
const MAX_FOOTER = 16 << 20;

/** Whether every file in `paths` has the same parquet schema as the first. */
export async function sameSchemas(paths: readonly string[]): Promise<boolean> {
  let first: Uint8Array | null = null;
  for (const path of paths) {
    const s = await schemaBytes(path);
    if (s === null) return false;
    if (first === null) first = s;
    else if (s.length !== first.length || s.some((x, i) => x !== first![i])) return false;
  }
  return true;
}

/** The schema bytes of the parquet file at `path`; null when its footer cannot be read. */
export async function schemaBytes(path: string): Promise<Uint8Array | null> {
  let fh;
  try {
    fh = await openSafe(path, O_RDONLY);
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size < 12) return null;
    const tail = new Uint8Array(8);
    await fh.read(tail, 0, 8, st.size - 8);
    if (String.fromCharCode(...tail.subarray(4)) !== "PAR1") return null;
    const n = new DataView(tail.buffer).getUint32(0, true);
    if (n > MAX_FOOTER || n + 12 > st.size) return null;
    const footer = new Uint8Array(n);
    const { bytesRead } = await fh.read(footer, 0, n, st.size - 8 - n);
    return bytesRead === n ? schemaField(footer) : null;
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/** Field 2 (the schema) of a thrift-compact `FileMetaData`, as its bytes; null when absent or malformed. */
function schemaField(b: Uint8Array): Uint8Array | null {
  let i = 0;
  const byte = () => {
    if (i >= b.length) throw new RangeError("past the footer");
    return b[i++];
  };
  const varint = () => {
    let v = 0;
    for (let scale = 1;; scale *= 128) {
      const c = byte();
      v += (c & 0x7f) * scale;
      if (!(c & 0x80)) return v;
    }
  };
  const skip = (type: number): void => {
    switch (type) {
      case 1: // true
      case 2: // false
        return;
      case 3: // byte
        byte();
        return;
      case 4: // i16
      case 5: // i32
      case 6: // i64
        varint();
        return;
      case 7: // double
        i += 8;
        return;
      case 8: { // binary (its length first: `i += varint()` would add to the old `i`)
        const n = varint();
        i += n;
        return;
      }
      case 9: // list
      case 10: { // set
        const h = byte();
        const n = h >> 4 === 15 ? varint() : h >> 4;
        for (let k = 0; k < n; k++) skip(h & 15);
        return;
      }
      case 11: { // map
        const n = varint();
        const kv = n ? byte() : 0;
        for (let k = 0; k < n; k++) {
          skip(kv >> 4);
          skip(kv & 15);
        }
        return;
      }
      case 12: // struct
        for (let h = byte(); h !== 0; h = byte()) {
          if (!(h >> 4)) varint(); // a field id given in full
          skip(h & 15);
        }
        return;
      default:
        throw new RangeError(`thrift type ${type}`);
    }
  };
  try {
    let id = 0;
    for (let h = byte(); h !== 0; h = byte()) {
      if (h >> 4) id += h >> 4;
      else {
        const z = varint();
        id = (z >>> 1) ^ -(z & 1);
      }
      const start = i;
      skip(h & 15);
      if (i > b.length) return null;
      if (id === 2) return b.subarray(start, i);
    }
    return null;
  } catch {
    return null;
  }
}
