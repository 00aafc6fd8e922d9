/**
 * Messages name what was given: a client option JSON cannot write
 * (`Infinity`, `NaN`) is shown as itself, never as `null`; a `--dir` that
 * is a symlink to nothing says so in one line naming both paths, never
 * "File exists (os error 17)".
 */
import assert from "node:assert/strict";
import { InsiderClient } from "../../mod.ts";
import { checkWritableDir } from "../../lib/cli/args.ts";
import { intOption } from "../../lib/shared/options.ts";

const client = (opts: Record<string, unknown>) =>
  new InsiderClient({
    apiKey: "demo-insider-key-0123456789",
    baseUrl: "https://insider.example.test",
    fetch: () => Promise.reject(new Error("no request is made")),
    ...opts,
  });

for (
  const [name, value, shown] of [
    ["retryBudgetMs", Infinity, "Infinity"],
    ["retryBudgetMs", -Infinity, "-Infinity"],
    ["maxRetries", NaN, "NaN"],
    ["timeoutMs", "5", '"5"'],
    ["retryBudgetMs", 1.5, "1.5"],
  ] as const
) {
  Deno.test(`a client's ${name} ${shown} is refused naming the value as given`, () => {
    assert.throws(
      () => client({ [name]: value }),
      (e: Error) =>
        e instanceof TypeError &&
        e.message.startsWith(`${name} ${shown} is not allowed; allowed: an integer from `) &&
        !e.message.includes("null"),
    );
  });
}

Deno.test("intOption keeps a good value and names the bound it checks", () => {
  assert.equal(intOption("n", 0, 0, 5), 0);
  assert.throws(
    () => intOption("n", 6, 0, 5),
    /^TypeError: n 6 is not allowed; allowed: an integer from 0 to 5$/,
  );
  assert.throws(
    () => intOption("n", -1, 0, Number.MAX_SAFE_INTEGER, (m) => new RangeError(m)),
    (e: Error) =>
      e instanceof RangeError && e.message === "n -1 is not allowed; allowed: an integer >= 0",
  );
});

Deno.test("--dir at a symlink to nothing: one line naming the link and its target", async () => {
  const d = await Deno.makeTempDir();
  try {
    await Deno.symlink(`${d}/nowhere`, `${d}/link`);
    const problem = await checkWritableDir("--dir", `${d}/link`);
    assert.equal(
      problem,
      `--dir "${d}/link" is a symlink to "${d}/nowhere", which does not exist; choose a ` +
        `directory, or make "${d}/nowhere" first`,
    );
    assert.doesNotMatch(problem!, /os error|File exists/);
    // a symlink to a folder is a folder: accepted
    await Deno.mkdir(`${d}/real`);
    await Deno.symlink(`${d}/real`, `${d}/good`);
    assert.equal(await checkWritableDir("--dir", `${d}/good`), undefined);
  } finally {
    await Deno.remove(d, { recursive: true });
  }
});

Deno.test({
  name: "deno task sync --to 9999-12-31 says once that it syncs up to today, and does",
  sanitizeResources: false,
  fn: async () => {
    const { connect } = await import("../../mod.ts");
    const today = (await connect({ quiet: true })).offlineToday!;
    const from = new Date(Date.parse(today) - 20 * 86_400_000).toISOString().slice(0, 10);
    const dir = await Deno.makeTempDir();
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "-q", "sync", "--dir", dir, "--from", from, "--to", "9999-12-31"],
        stdout: "piped",
        stderr: "piped",
        env: { PITCH_API_KEY: "", INSIDER_API_KEY: "" },
      }).output();
      const [stdout, stderr] = [out.stdout, out.stderr].map((b) => new TextDecoder().decode(b));
      assert.equal(out.code, 0, stderr);
      assert.match(
        stderr,
        new RegExp(`sync: --to 9999-12-31 is after today \\(${today}\\); syncing up to ${today}`),
      );
      assert.match(stdout, new RegExp(`insider_trades: .* ${from} → ${today}`));
      // counts with their nouns: "1 month", never "1 months" or "1 requests"
      assert.match(stdout, /rows in \d+ months? \(\d+ already done\), \d+ requests?, /);
      assert.doesNotMatch(stdout, /\b1 (months|requests)\b/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
