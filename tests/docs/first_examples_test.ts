/**
 * First examples that answer: every README block that runs an event study,
 * and the first block of each guide that does, pulls enough data for
 * intervals. Run offline (the emulator) in a temporary directory, each
 * prints a stats table in which at least one interval is a pair of numbers,
 * not "thin".
 */
import assert from "node:assert/strict";
import { guideFiles, guideSnippets, readmeSnippets, type Snippet } from "./snippets.ts";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const studies = (s: Snippet) => /eventStudy\(/.test(s.code);
const firstOfGuides = guideFiles().flatMap((g) => {
  const first = guideSnippets().find((s) => s.where.startsWith(`${relative(ROOT, g)}:`));
  return first && studies(first) ? [first] : [];
});
const chosen = [...readmeSnippets().filter(studies), ...firstOfGuides];

const env = (() => {
  const e = { ...Deno.env.toObject(), NO_COLOR: "1" };
  for (const k of ["PITCH_API_KEY", "INSIDER_API_KEY", "PITCH_BASE_URL", "INSIDER_BASE_URL"]) {
    delete (e as Record<string, string>)[k];
  }
  return e;
})();

Deno.test("first examples: the README's and the guides' first event studies print numeric intervals", async () => {
  const where = chosen.map((s) => s.where.split(":")[0]);
  for (const page of ["README.md", "docs/backtests.md", "docs/charts-and-notebooks.md"]) {
    assert.ok(where.includes(page), `${page} has no first example with an event study`);
  }
  const dir = await Deno.makeTempDir({ prefix: "signalbook-first-" });
  try {
    for (const [i, s] of chosen.entries()) {
      const file = `${dir}/first_${i}.ts`;
      await Deno.writeTextFile(file, `${s.code}\nexport {};\n`);
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-check", file],
        cwd: dir,
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      assert.ok(out.success, `${s.where}: ${new TextDecoder().decode(out.stderr).slice(-1500)}`);
      assert.match(text, /95% CI of mean/, `${s.where} prints no stats table`);
      const rows = text.split("\n").filter((l) => /\d+ \(\d+\)/.test(l));
      const numeric = rows.filter((l) => /\[-?\d+\.\d\d, -?\d+\.\d\d\]/.test(l));
      assert.ok(
        numeric.length >= 1,
        `${s.where}: every row is thin, no interval:\n${rows.join("\n")}`,
      );
      console.log(`${s.where}: ${numeric.length} of ${rows.length} rows have an interval`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
