/** Frames for the writeDataset tests: `parts` partitions (`k`) of `rows` rows tagged `version`. */
import pl from "nodejs-polars";

/** A frame with partition column `k` ("p00", ...), a `version` tag and some payload. */
export function modeFrame(version: string, parts: number, rows: number, first = 0): pl.DataFrame {
  const k: string[] = [];
  const n: number[] = [];
  for (let p = first; p < first + parts; p++) {
    for (let i = 0; i < rows; i++) {
      k.push(`p${String(p).padStart(2, "0")}`);
      n.push(i);
    }
  }
  return pl.DataFrame({
    k: pl.Series("k", k, pl.Utf8),
    version: pl.Series("version", k.map(() => version), pl.Utf8),
    n: pl.Series("n", n, pl.Int64),
    text: pl.Series("text", n.map((i) => `row ${i} ${version} `.repeat(8)), pl.Utf8),
  });
}

/** `n` rows of random text in partitions p0 and p1: their parquet does not compress (~37 bytes a row). */
export function bigFrame(version: string, n = 20_000): pl.DataFrame {
  return pl.DataFrame({
    k: pl.Series("k", Array.from({ length: n }, (_, i) => `p${i % 2}`), pl.Utf8),
    version: pl.Series("version", Array.from({ length: n }, () => version), pl.Utf8),
    text: pl.Series("text", Array.from({ length: n }, () => crypto.randomUUID()), pl.Utf8),
  });
}
