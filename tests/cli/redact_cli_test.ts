/**
 * The key leaks through no CLI (issue 31, Deliver 2): `sync`, `demo`,
 * `backtest` and `doctor` (text and `--json`) run against an insider
 * service that puts the key in its cursors, row values, field names, lookup
 * answers and problem details (in its encodings); nothing they print, on
 * stdout or stderr, holds it.
 */
import assert from "node:assert/strict";
import { loopback } from "../_loopback.ts";
import { KEY, keyedSearchPage, leaks } from "../_key_doors.ts";

const dec = new TextDecoder();

function hostile() {
  return loopback(async (req) => {
    const path = new URL(req.url).pathname;
    if (path.endsWith("/search")) return await keyedSearchPage(req);
    if (path.endsWith("/feeds")) {
      return Response.json({
        data: [{
          accession_number: "0000000001-24-000001",
          transaction_id: 1,
          filed_at: KEY,
          [KEY]: KEY,
        }],
        next_cursor: `f:${btoa("x:" + KEY)}`,
      });
    }
    if (/insiders|issuers|titles/.test(path)) {
      return Response.json({ data: [{ cik: KEY, name: KEY, [`extra_${KEY}`]: KEY }] });
    }
    return Response.json({
      type: "about:blank",
      title: `Bad ${KEY}`,
      detail: `echo ${encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`,
    }, { status: 400 });
  });
}

async function run(script: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", `lib/cli/${script}.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { PITCH_API_KEY: "", NO_COLOR: "1", ...env },
  }).output();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

Deno.test("sync, demo, backtest and doctor print no part or encoding of the key", async () => {
  const srv = hostile();
  const dir = await Deno.makeTempDir();
  try {
    const env = { INSIDER_API_KEY: KEY, INSIDER_BASE_URL: `${srv.base}/insider` };
    const runs: [string, string[]][] = [
      ["sync", [
        "--dir",
        dir,
        "--from",
        "2024-04-01",
        "--to",
        "2024-06-30",
        "--datasets",
        "insider_trades",
      ]],
      ["demo", ["--dir", dir]],
      ["backtest", ["--dir", dir]],
      ["doctor", []],
      ["doctor", ["--json"]],
    ];
    for (const [script, args] of runs) {
      const r = await run(script, args, env);
      assert.ok(r.text.length > 0, `${script} printed something`);
      assert.deepEqual(
        leaks(r.text),
        [],
        `${script} ${args.join(" ")} (exit ${r.code}):\n${r.text}`,
      );
      if (script !== "doctor") assert.notEqual(r.code, 0, `${script}: ${r.text}`);
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
