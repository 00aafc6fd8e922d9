/**
 * Issue 33: a bad flag prints the problem and one line naming `--help` —
 * not the whole help — and typos in flags and feed topics get a did-you-mean.
 */
import assert from "node:assert/strict";
import { helpHint, notAllowed } from "../../lib/cli/args.ts";
import { parseFeedFlag } from "../../lib/cli/feed_flag.ts";

const dec = new TextDecoder();
async function run(script: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", script, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { PITCH_API_KEY: "", INSIDER_API_KEY: "", NO_COLOR: "1" },
  }).output();
  return { code: out.code, stderr: dec.decode(out.stderr) };
}
const lines = (s: string) => s.trim().split("\n").filter((l) => l.trim() !== "");

Deno.test("every command: a bad flag is the problem, then one line naming --help, nothing more", async () => {
  const cases: [string, string[], RegExp][] = [
    ["lib/cli/backtest.ts", ["--colour", "red"], /^backtest: Unknown option '--colour'$/],
    ["lib/cli/sync.ts", ["--concurrency", "99"], /^sync: --concurrency "99" is not allowed/],
    [
      "lib/cli/demo.ts",
      ["--ouut", "x"],
      /^demo: Unknown option '--ouut'; did you mean --out\?$/,
    ],
    ["lib/cli/doctor.ts", ["--jsn"], /^doctor: Unknown option '--jsn'; did you mean --json\?$/],
    [
      "lib/cli/notebooks.ts",
      ["--keep-goin"],
      /^notebooks: Unknown option '--keep-goin'; did you mean --keep-going\?$/,
    ],
    ["lib/cli/stub.ts", ["--prot", "1"], /^stub: Unknown option '--prot'; did you mean --port\?$/],
    // a flag given twice: which one was meant is a guess, so neither is taken (the second
    // value is a bad one, so that a parser taking it in silence fails here, not hangs serving)
    [
      "lib/cli/stub.ts",
      ["--port=80", "--port=99999"],
      /^stub: --port is given twice \(80, 99999\); give it once$/,
    ],
    [
      "lib/cli/sync.ts",
      ["--concurrency", "4", "--concurrency", "99"],
      /^sync: --concurrency is given twice \(4, 99\); give it once$/,
    ],
  ];
  for (const [script, args, re] of cases) {
    const r = await run(script, args);
    const name = script.split("/").at(-1)!.replace(".ts", "");
    assert.equal(r.code, 2, `${name} ${args.join(" ")}: ${r.stderr}`);
    const ls = lines(r.stderr);
    assert.equal(ls.length, 2, `${name}: two lines expected, got:\n${r.stderr}`);
    assert.match(ls[0], re);
    assert.equal(ls[1], `Run "deno task ${name} --help" for every flag.`);
    assert.doesNotMatch(r.stderr, /Usage:|Options:/);
  }
});

Deno.test("backtest: several bad flags are listed, then the one --help line", async () => {
  const r = await run("lib/cli/backtest.ts", ["--cluster", "two_way", "--entry", "filng"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    [
      "backtest:",
      '  - --entry "filng" is not allowed; allowed: trade, filing (did you mean "filing"?)',
      '  - --cluster "two_way" is not allowed; allowed: two-way, month, issuer, none (did you mean "two-way"?)',
      'Run "deno task backtest --help" for every flag.',
      "",
    ].join("\n"),
  );
});

Deno.test("backtest: feed topics and flags get a did-you-mean", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["--feed", "ceo-trade:buy"],
      /--feed "ceo-trade:buy": topic "ceo-trade" is not allowed; allowed: top-trades, .* \(did you mean "ceo-trades"/,
    ],
    [
      ["--feed", "ceo-trades:sel"],
      /side "sel" is not allowed; allowed: buy, sell \(did you mean "sell"\?\)/,
    ],
    [
      ["--feed", "ceo-trades"],
      /--feed "ceo-trades": the side is missing; write TOPIC:SIDE, e\.g\. ceo-trades:buy/,
    ],
    // the value after an unknown flag is taken as its value, not reported as a stray argument
    [["--feeds", "ceo-trades:buy"], /^ {2}- Unknown option '--feeds'; did you mean --feed\?$/m],
    [["--grup-by", "role"], /Unknown option '--grup-by'; did you mean --group-by\?/],
    [
      ["--group-by", "roles"],
      /--group-by "roles" is not allowed; allowed: feed, role, .* \(did you mean "role"\?\)/,
    ],
    [["--horizons", "1m,3mo"], /--horizons: "3mo" is not allowed; .* \(did you mean "3m"\?\)/],
    [["--portfolio", "--weighting", "equl"], /--weighting "equl" .* \(did you mean "equal"\?\)/],
  ];
  // every problem is reported at once: one run checks them all
  const r = await run("lib/cli/backtest.ts", cases.flatMap(([args]) => args));
  assert.equal(r.code, 2, r.stderr);
  for (const [args, re] of cases) assert.match(r.stderr, re, args.join(" "));
  assert.doesNotMatch(r.stderr, /unexpected argument/);
  assert.equal(lines(r.stderr).length, cases.length + 2, r.stderr); // "backtest:", one per case, --help
});

Deno.test("parseFeedFlag and notAllowed: the value, what is allowed, close matches", () => {
  assert.deepEqual(parseFeedFlag("top-insiders:sell"), {
    topic: "top-insiders",
    side: "sell",
    label: "top-insiders:sell",
  });
  assert.match(parseFeedFlag("ceo-trades:buy:x") as string, /side "buy:x" is not allowed/);
  assert.equal(
    parseFeedFlag("ceo-trades:sel"),
    '--feed "ceo-trades:sel": side "sel" is not allowed; allowed: buy, sell (did you mean "sell"?)',
  );
  assert.match(parseFeedFlag("ceo-trades:") as string, /the side is missing/);
  assert.match(parseFeedFlag("revresals:buy") as string, /did you mean "reversals"/);
  assert.equal(
    notAllowed("entry", "filng", ["trade", "filing"]),
    '--entry "filng" is not allowed; allowed: trade, filing (did you mean "filing"?)',
  );
  assert.equal(notAllowed("entry", "zzz", ["trade", "filing"]).includes("did you mean"), false);
  assert.equal(
    helpHint("sync"),
    'Run "deno task sync --help" for every flag.',
  );
});

Deno.test("every command's --help fits 80 columns, and no prose line breaks early", async () => {
  for (const name of ["backtest", "demo", "sync", "doctor"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", `lib/cli/${name}.ts`, "--help"],
      stdout: "piped",
      env: { PITCH_API_KEY: "", INSIDER_API_KEY: "", NO_COLOR: "1" },
    }).output();
    const text = dec.decode(out.stdout).trimEnd();
    for (const l of text.split("\n")) assert.ok(l.length <= 80, `${name}: ${l.length}: ${l}`);
    // a prose paragraph (lines not indented): every line but its last is filled
    for (const para of text.split("\n\n").slice(1)) {
      const ls = para.split("\n");
      if (ls.some((l) => l.startsWith(" ") || l.endsWith(":"))) continue;
      ls.slice(0, -1).forEach((l) => assert.ok(l.length >= 60, `${name}: a stray break: "${l}"`));
    }
  }
});
