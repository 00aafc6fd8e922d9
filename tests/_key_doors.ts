import { partialOf } from "../mod.ts";

/** One key, built here, and every form in which it could leak (issue 31): shared by the redaction tests. */

/** The key: built, not written out, so no fixture holds it. */
export const KEY = ["sk", "live", "Q7fG2pX9zR", "4mT8/wK+v"].join("-");

export const b64 = (s: string): string => btoa(s);
export const hex = (s: string): string =>
  [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");
export const lowerEscapes = (s: string): string =>
  s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
export const pyQuote = (s: string, plus = false): string =>
  [...s].map((c) =>
    /[A-Za-z0-9_.~-]/.test(c) || (!plus && c === "/")
      ? c
      : "%" + c.charCodeAt(0).toString(16).toUpperCase()
  ).join("");

/** Every encoding a leak could take, and parts of the key long enough to matter. */
export function leaks(text: string): string[] {
  const found: string[] = [];
  const probes = [
    KEY,
    KEY.slice(0, 14),
    KEY.slice(-12),
    encodeURIComponent(KEY),
    lowerEscapes(encodeURIComponent(KEY)),
    pyQuote(KEY),
    pyQuote(KEY, true),
    JSON.stringify(KEY).slice(1, -1).replace(/\//g, "\\/"),
    b64(KEY).slice(0, 16),
    b64("x" + KEY).slice(4, 20),
    b64("xy" + KEY).slice(4, 20),
    KEY.toUpperCase(),
    KEY.toLowerCase(),
    KEY.toUpperCase().slice(0, 14),
    hex(KEY),
    hex(KEY).toUpperCase(),
    hex(KEY).slice(0, 24),
  ];
  for (const p of probes) if (text.includes(p)) found.push(p);
  return found;
}

/**
 * A search page that puts the key in a row's value, a field's name and a
 * cursor that comes back on every page (so the pull ends in a
 * `PaginationError` holding it).
 */
export async function keyedSearchPage(req: Request): Promise<Response> {
  const body = await req.json().catch(() => ({}));
  const cursor = body.pagination?.cursor;
  return Response.json({
    data: [{
      accessionNumber: cursor ? "0000000001-24-000002" : "0000000001-24-000001",
      transactionId: 1,
      filedAt: "2024-05-01T15:00:00Z",
      issuerName: KEY, // a text field: the value grammar reads it as is
      [KEY.toUpperCase()]: 1,
      hex: hex(KEY),
    }],
    // whole values: inside a longer text the key would get the answer refused (see `_key_match.ts`)
    nextCursor: KEY.toUpperCase(),
    hasMore: true,
  });
}

/** All an error shows, through every door. */
export function doors(e: unknown): string {
  const parts: string[] = [];
  const add = (f: () => unknown) => {
    try {
      parts.push(String(f()));
    } catch (x) {
      parts.push(`(door threw ${x})`);
    }
  };
  add(() => String(e));
  add(() => (e as Error).message);
  add(() => (e as Error).stack);
  add(() => JSON.stringify(e));
  add(() => Deno.inspect(e, { showHidden: true, depth: 100, getters: false }));
  add(() => Deno.inspect(e, { depth: 100 }));
  add(() => JSON.stringify((e as { cursor?: unknown }).cursor));
  add(() => JSON.stringify(partialOf(e)?.cursor));
  return parts.join("\n");
}

/**
 * `lib/cli/sync.ts --datasets pitches` into a new temporary folder against
 * the service at `base` (`/catalog` and `/insider` under it), both key
 * variables set to `key` as a user's environment would hold it: its exit
 * code and its output, to check what it shows of the key.
 */
export async function syncWithKey(
  base: string,
  key: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const cli = new URL("../lib/cli/sync.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", cli, "--dir", dir, "--datasets", "pitches"],
      env: {
        PITCH_API_KEY: key,
        PITCH_BASE_URL: `${base}/catalog`,
        INSIDER_API_KEY: key,
        INSIDER_BASE_URL: `${base}/insider`,
        NO_COLOR: "1",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
