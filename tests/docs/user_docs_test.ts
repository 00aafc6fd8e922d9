/**
 * The user docs speak to users: README.md and docs/*.md cite no internal
 * issue numbers (a tracker readers do not have), and they define the
 * cluster terms the API exposes (`groupBy: "cluster"`,
 * `cluster_insider_count_30d`).
 */
import assert from "node:assert/strict";

const files = ["README.md", ...[...Deno.readDirSync("docs")].map((e) => `docs/${e.name}`)]
  .filter((f) => f.endsWith(".md"));

Deno.test("README.md and docs/ cite no internal issue numbers", () => {
  for (const f of files) {
    const lines = Deno.readTextFileSync(f).split("\n");
    lines.forEach((line, i) => {
      assert.doesNotMatch(line, /\bissues? ?#?\d+/i, `${f}:${i + 1}: ${line}`);
    });
  }
});

Deno.test("README.md and docs/ speak of code by version or commit, not by internal rounds", () => {
  // "this round's code", "Round 5", "the previous round": a user has no rounds; a request round
  // ("15 rounds", "the last round or two") is the network's and stays
  const internal =
    /\bthis round\b|\bround \d+\b|\bround's (code|last|starting)|\b(previous|earlier|next) rounds?\b|\bround before\b|\brounds did\b/i;
  for (const f of files) {
    Deno.readTextFileSync(f).split("\n").forEach((line, i) => {
      assert.doesNotMatch(line, internal, `${f}:${i + 1}: ${line}`);
    });
  }
});

Deno.test('the docs define groupBy: "cluster" and cluster_insider_count_30d', () => {
  const text = files.map((f) => Deno.readTextFileSync(f)).join("\n");
  // the grouping names the flag it groups by, in the same sentence
  assert.match(text, /groupBy: "cluster"[^.]*`is_cluster_trade_30d`/);
  assert.match(text, /`cluster_insider_count_30d`[^.]*insiders/);
});
