/**
 * Docs a newcomer can navigate: every relative link in README.md and in the
 * guides under docs/ points at a file that exists, and a `#fragment` at a
 * heading of that file (GitHub's anchor rules); every guide is reachable from
 * the README; the README stays short and table cells stay short.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { guideFiles } from "./snippets.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = join(ROOT, "README.md");
const pages = [README, ...guideFiles()];

/** The text outside fenced code blocks. */
function unfenced(text: string): string {
  return text.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The text outside fenced code blocks, with inline code spans blanked. */
function prose(text: string): string {
  return unfenced(text).replace(/(`+)[^`\n]*?\1/g, "code");
}

/** GitHub's anchor of each heading, duplicates numbered `-1`, `-2`… */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of unfenced(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** Relative links `[text](target)` outside code: the target as written. */
function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

Deno.test("docs links: the anchor rules follow GitHub's", () => {
  const a = anchors('# A b\n## Choices where the specs say "not shown"\n### `x` y\n## A b\n');
  assert.deepEqual([...a], ["a-b", "choices-where-the-specs-say-not-shown", "x-y", "a-b-1"]);
});

Deno.test("docs links: every relative link resolves to a file and a heading", () => {
  const broken: string[] = [];
  let count = 0;
  for (const page of pages) {
    const text = Deno.readTextFileSync(page);
    for (const target of links(text)) {
      count++;
      const [path, fragment] = target.split("#");
      const file = path ? join(dirname(page), decodeURIComponent(path)) : page;
      const where = `${relative(ROOT, page)} → ${target}`;
      let stat: Deno.FileInfo;
      try {
        stat = Deno.statSync(file);
      } catch {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (fragment === undefined) continue;
      if (!stat.isFile || !file.endsWith(".md")) {
        broken.push(`${where}: a fragment on a file that is not markdown`);
      } else if (!anchors(Deno.readTextFileSync(file)).has(fragment)) {
        broken.push(`${where}: no heading with that anchor`);
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(count >= 30, `only ${count} relative links found: is the link pattern still right?`);
});

Deno.test("docs links: the README links every guide and stays a short read", () => {
  const text = Deno.readTextFileSync(README);
  const linked = new Set(links(text).map((t) => join(ROOT, t.split("#")[0])));
  const missing = guideFiles().filter((g) => !linked.has(g)).map((g) => relative(ROOT, g));
  assert.deepEqual(missing, [], "guides the README does not link");
  const lines = text.split("\n").length;
  assert.ok(lines <= 400, `README.md has ${lines} lines; the reference belongs in docs/`);
  assert.match(text, /npx -y deno@2\.9\.6 task test/, "the README names the test command");
});

Deno.test("docs links: table cells stay short", () => {
  const long: string[] = [];
  for (const page of pages) {
    for (const line of unfenced(Deno.readTextFileSync(page)).split("\n")) {
      if (!line.startsWith("|")) continue;
      for (const cell of line.split("|").map((c) => c.trim())) {
        if (cell.length > 120) {
          long.push(`${relative(ROOT, page)}: ${cell.slice(0, 60)}… (${cell.length})`);
        }
      }
    }
  }
  assert.deepEqual(long, []);
});

Deno.test("docs links: every file named in the docs is in the repository", () => {
  // a file named in prose or in inline code (`bench/x.ts`, DESIGN.md) must exist: the docs
  // travel with the repository and may cite nothing outside it
  const outside: string[] = [];
  // files the tools write, and placeholders in examples: not citations
  const written = new Set(["report.md", "out/report.md", "path/to/any.ipynb", "analysis.ipynb"]);
  const exists = (p: string) => {
    try {
      Deno.statSync(p);
      return true;
    } catch {
      return false;
    }
  };
  for (const page of pages) {
    const text = unfenced(Deno.readTextFileSync(page));
    const named = text.matchAll(/(?<![\w./-])((?:[\w-]+\/)*[\w-]+\.(?:md|ts|py|ipynb))\b/g);
    for (const [, name] of named) {
      const found = written.has(name) ||
        [dirname(page), ROOT, join(ROOT, "docs"), join(ROOT, "lib"), join(ROOT, "notebooks")]
          .some((d) => exists(join(d, name))) ||
        // a module named by its file alone (`portfolio.ts`) somewhere under lib/ or bench/
        (!name.includes("/") && [join(ROOT, "lib"), join(ROOT, "bench"), join(ROOT, "tests")]
          .some((d) => findFile(d, name)));
      if (!found) outside.push(`${relative(ROOT, page)}: ${name}`);
    }
  }
  assert.deepEqual([...new Set(outside)], []);
});

function findFile(dir: string, name: string): boolean {
  for (const e of Deno.readDirSync(dir)) {
    if (e.isFile && e.name === name) return true;
    if (e.isDirectory && findFile(join(dir, e.name), name)) return true;
  }
  return false;
}
