/**
 * Saving a downloaded document safely: the server's filename is sanitised
 * (no path separators, no `..`, no control characters, no leading dots,
 * at most 180 characters), the file always lands inside `dir`, an existing
 * file is never overwritten silently (a numbered name is chosen instead,
 * unless `overwrite` is set), and the bytes are written to a temporary file
 * and renamed, so a crash never leaves a half file.
 *
 * @module
 */
import { basename, join, resolve, sep } from "node:path";

/**
 * A safe file name from an untrusted one.
 *
 * @example
 * ```ts
 * import { sanitizeFilename } from "./download.ts";
 * sanitizeFilename("../../etc/passwd"); // "passwd"
 * sanitizeFilename("a\u0000b.pdf"); // "a_b.pdf"
 * ```
 */
export function sanitizeFilename(name: string): string {
  // deno-lint-ignore no-control-regex -- control characters are exactly what is removed
  let s = name.replace(/[\u0000-\u001f\u007f]/g, "_");
  s = s.split(/[\\/]/).filter((p) => p !== "").pop() ?? "";
  s = s.replace(/\.\.+/g, ".").replace(/^[.\s]+/, "").replace(/[\s.]+$/, "");
  s = s.replace(/[<>:"|?*]/g, "_");
  if (s.length > 180) {
    const dot = s.lastIndexOf(".");
    const ext = dot > 0 && s.length - dot <= 10 ? s.slice(dot) : "";
    s = s.slice(0, 180 - ext.length) + ext;
  }
  return s === "" ? "document" : s;
}

/** Writes bytes under `dir` with a sanitised name; returns the path written. */
export async function saveUnder(
  dir: string,
  filename: string,
  bytes: Uint8Array,
  overwrite = false,
): Promise<string> {
  const root = resolve(dir);
  await Deno.mkdir(root, { recursive: true });
  const safe = sanitizeFilename(filename);
  const dot = safe.lastIndexOf(".");
  const stem = dot > 0 ? safe.slice(0, dot) : safe;
  const ext = dot > 0 ? safe.slice(dot) : "";
  const tmp = join(root, `.${crypto.randomUUID()}.part`);
  await Deno.writeFile(tmp, bytes);
  try {
    for (let n = 0; n < 10_000; n++) {
      const target = resolve(join(root, n === 0 ? safe : `${stem}-${n}${ext}`));
      if (!target.startsWith(root + sep) || basename(target) === "") {
        throw new Error(`refusing to write outside ${root}`);
      }
      try {
        if (overwrite) await Deno.rename(tmp, target);
        else await Deno.link(tmp, target); // fails if the name exists: no clobbering, no race
        return target;
      } catch (e) {
        if (!overwrite && e instanceof Deno.errors.AlreadyExists) continue;
        throw e;
      }
    }
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  throw new Error(`no free file name for ${safe} in ${root}`);
}
