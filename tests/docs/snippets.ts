/**
 * Finds every TypeScript snippet users read: each ```ts block of README.md
 * and of the guides in `docs/`, and each JSDoc `@example` in `mod.ts` and
 * `lib/`. Relative imports are
 * rewritten to absolute `file:` URLs of the checkout, so a snippet written to
 * a temporary directory runs as it would in a user's own project.
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** One snippet and where it was found. */
export interface Snippet {
  /** `README.md:120` or `lib/frames/build.ts:47`. */
  where: string;
  /** The code, imports rewritten. */
  code: string;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function rewrite(code: string, fromFile: string): string {
  return code.replace(
    /(from\s+|import\s*\(\s*)(["'])(\.{1,2}\/[^"']+)\2/g,
    (_m, lead: string, q: string, spec: string) =>
      `${lead}${q}${pathToFileURL(join(dirname(fromFile), spec)).href}${q}`,
  );
}

function fences(text: string, file: string, lineOf: (i: number) => number): Snippet[] {
  const out: Snippet[] = [];
  const re = /```ts\n([\s\S]*?)```/g;
  for (let m; (m = re.exec(text));) {
    out.push({
      where: `${relative(ROOT, file)}:${lineOf(m.index)}`,
      code: rewrite(m[1], file),
    });
  }
  return out;
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

/** README.md's ```ts blocks. */
export function readmeSnippets(): Snippet[] {
  const file = join(ROOT, "README.md");
  const text = Deno.readTextFileSync(file);
  return fences(text, file, (i) => lineAt(text, i));
}

/** The guides: every `docs/*.md`, sorted. */
export function guideFiles(): string[] {
  return [...Deno.readDirSync(join(ROOT, "docs"))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => join(ROOT, "docs", e.name))
    .sort();
}

/** The ```ts blocks of every guide in docs/. */
export function guideSnippets(): Snippet[] {
  return guideFiles().flatMap((file) => {
    const text = Deno.readTextFileSync(file);
    return fences(text, file, (i) => lineAt(text, i));
  });
}

function* tsFiles(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* tsFiles(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** Every JSDoc `@example` block in mod.ts and lib/. */
export function exampleSnippets(): Snippet[] {
  const out: Snippet[] = [];
  for (const file of [join(ROOT, "mod.ts"), ...tsFiles(join(ROOT, "lib"))]) {
    const text = Deno.readTextFileSync(file);
    for (const c of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const body = c[0];
      const at = body.indexOf("@example");
      if (at < 0) continue;
      const plain = body.slice(at).split("\n").map((l) => l.replace(/^\s*\* ?/, "")).join("\n");
      const base = lineAt(text, c.index! + at);
      out.push(...fences(plain, file, (i) => base + lineAt(plain, i)));
    }
  }
  return out;
}
