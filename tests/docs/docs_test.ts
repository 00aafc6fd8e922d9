/**
 * Docs that run: every ```ts block of README.md and of the guides in docs/,
 * and every JSDoc `@example`
 * is written to a temporary directory outside the repo (relative imports
 * pointing at this checkout), type-checked in one `deno check`, and executed
 * offline with the in-process emulator (no keys set). Each snippet must be
 * self-contained.
 */
import assert from "node:assert/strict";
import { exampleSnippets, guideSnippets, readmeSnippets, type Snippet } from "./snippets.ts";

const snippets: Snippet[] = [...readmeSnippets(), ...guideSnippets(), ...exampleSnippets()];
const env = (() => {
  const e = { ...Deno.env.toObject(), NO_COLOR: "1" };
  for (const k of ["PITCH_API_KEY", "INSIDER_API_KEY", "PITCH_BASE_URL", "INSIDER_BASE_URL"]) {
    delete (e as Record<string, string>)[k];
  }
  return e;
})();

const dir = await Deno.makeTempDir({ prefix: "signalbook-docs-" });
const files = snippets.map((s, i) => {
  const file = `${dir}/snippet_${String(i).padStart(3, "0")}.ts`;
  Deno.writeTextFileSync(file, `// ${s.where}\n${s.code}\nexport {};\n`);
  return file;
});
const whereOf = new Map(files.map((f, i) => [f, snippets[i].where]));

function run(args: string[]): Promise<Deno.CommandOutput> {
  return new Deno.Command(Deno.execPath(), {
    args,
    cwd: dir,
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
}

Deno.test("docs: README and guides have ts blocks and the library has @examples", () => {
  const [readme, guides, examples] = [readmeSnippets(), guideSnippets(), exampleSnippets()];
  assert.ok(readme.length >= 2, `README blocks: ${readme.length}`);
  assert.ok(guides.length >= 16, `guide blocks: ${guides.length}`);
  assert.ok(examples.length >= 60, `@examples: ${examples.length}`);
  for (const guide of ["clients", "datasets", "backtests", "charts-and-notebooks", "emulator"]) {
    assert.ok(
      guides.some((s) => s.where.startsWith(`docs/${guide}.md:`)),
      `docs/${guide}.md has no ts block`,
    );
  }
  console.log(
    `docs: ${readme.length} README blocks, ${guides.length} guide blocks, ${examples.length} @examples`,
  );
});

Deno.test("docs: every snippet type-checks on its own", async () => {
  const out = await run(["check", "--quiet", ...files]);
  const text = new TextDecoder().decode(out.stderr).replaceAll(dir + "/", "");
  const named = text.replace(/snippet_\d{3}\.ts/g, (f) => whereOf.get(`${dir}/${f}`) ?? f);
  assert.ok(out.success, `type errors in doc snippets:\n${named.slice(0, 6000)}`);
});

Deno.test("docs: every snippet runs offline in a temporary directory", async () => {
  const runner = new URL("./run_snippets.ts", import.meta.url).pathname;
  const half = Math.ceil(files.length / 2);
  const outs = await Promise.all(
    [files.slice(0, half), files.slice(half)].map((part) =>
      run(["run", "-A", "--no-check", runner, ...part])
    ),
  );
  const results = outs.flatMap((o) =>
    new TextDecoder().decode(o.stdout).split("\n").filter((l) => l.startsWith('{"file"'))
      .map((l) => JSON.parse(l) as { file: string; ok: boolean; error?: string })
  );
  const failed = results.filter((r) => !r.ok);
  assert.equal(
    results.length,
    files.length,
    `runner stopped early: ${new TextDecoder().decode(outs[0].stderr).slice(-2000)}`,
  );
  assert.deepEqual(
    failed.map((f) => `${whereOf.get(f.file)}: ${f.error?.split("\n").slice(0, 3).join(" | ")}`),
    [],
  );
});

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch { /* already gone */ }
});
