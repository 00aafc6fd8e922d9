/**
 * Transaction records generated independently of the project's emulator:
 * only the field names and kinds come from the catalog (the contract); the
 * values come from a seeded generator here, with no shared code or data
 * with `lib/stub`. Text columns mix cardinalities the way filings do (a
 * few codes, thousands of tickers and names, unique ids and footnotes), so
 * no build path is flattered by the emulator's repetition. 10 % of the
 * values are null.
 *
 * @module
 */
import { TRANSACTION_FIELDS } from "../lib/insider/fields.ts";

/** xorshift32 in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ";

/** A generator of snake_case transaction records (every catalog field), deterministic for a seed. */
export function recordGenerator(seed = 20261122): () => Record<string, unknown> {
  const r = rng(seed);
  const word = (len: number) => {
    let s = "";
    for (let i = 0; i < len; i++) s += ALPHA[Math.floor(r() * ALPHA.length)];
    return s;
  };
  // per text column: a pool size (0 = every value fresh)
  const pools = new Map<string, string[] | null>();
  TRANSACTION_FIELDS.forEach((f, i) => {
    if (f.type !== "code") return;
    const card = [8, 40, 3_000, 0][i % 4];
    pools.set(
      f.name,
      card === 0 ? null : Array.from({ length: card }, () => word(4 + Math.floor(r() * 16))),
    );
  });
  const day = (lo: number) => new Date(lo + Math.floor(r() * 4000) * 86_400_000);
  const base = Date.UTC(2014, 0, 1);
  return () => {
    const row: Record<string, unknown> = {};
    for (const f of TRANSACTION_FIELDS) {
      if (f.type !== "list" && r() < 0.1) {
        row[f.name] = null;
        continue;
      }
      switch (f.type) {
        case "code": {
          const pool = pools.get(f.name);
          row[f.name] = pool ? pool[Math.floor(r() * pool.length)] : word(8 + Math.floor(r() * 24));
          break;
        }
        case "date":
          row[f.name] = day(base).toISOString().slice(0, 10);
          break;
        case "timestamp":
          row[f.name] = new Date(day(base).getTime() + Math.floor(r() * 86_400_000))
            .toISOString();
          break;
        case "boolean":
          row[f.name] = r() < 0.5;
          break;
        case "decimal":
          row[f.name] = Math.round((r() - 0.4) * 1e6) / 100;
          break;
        case "integer":
          row[f.name] = Math.floor(r() * 1e9);
          break;
        case "list":
          row[f.name] = Array.from({ length: Math.floor(r() * 4) }, () => 1 + Math.floor(r() * 18));
          break;
      }
    }
    return row;
  };
}

/** `n` records of one {@link recordGenerator}. */
export function independentRecords(n: number, seed?: number): Record<string, unknown>[] {
  const next = recordGenerator(seed);
  return Array.from({ length: n }, next);
}

/** The records as the service's response text (`{"data":[...]}`). */
export function independentResponseText(n: number, seed?: number): string {
  const next = recordGenerator(seed);
  const parts: string[] = new Array(n);
  for (let k = 0; k < n; k++) parts[k] = JSON.stringify(next());
  return `{"data":[${parts.join(",")}]}`;
}
