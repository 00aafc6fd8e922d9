/**
 * connect() never answers a live configuration with demo data: a base URL
 * without its key, a key without its base URL, or a near-miss variable name
 * while the real one is unset is a ConfigurationError naming the variables,
 * never a value, whatever `quiet` says.
 */
import assert from "node:assert/strict";
import { ConfigurationError, connect } from "../mod.ts";
import { nearMisses, SERVICE_VARS } from "../lib/connect/env.ts";

const SECRET = "sk-live-Q7fG2pX9zR-CONNECT-ENV";

async function refused(env: Record<string, string>): Promise<string> {
  try {
    await connect({ env, quiet: true });
  } catch (e) {
    assert.ok(e instanceof ConfigurationError, String(e));
    const all = `${e.message} ${String(e)} ${e.stack} ${JSON.stringify(e)} ${Deno.inspect(e)}`;
    assert.ok(!all.includes(SECRET), "the value is never printed");
    assert.ok(!all.includes("https://api.example.test"), "nor a URL value");
    return e.message;
  }
  assert.fail(`connect(${JSON.stringify(Object.keys(env))}) answered with demo data`);
}

Deno.test("a base URL without its key is an error naming the key variable, even quiet", async () => {
  const m = await refused({ INSIDER_BASE_URL: "https://api.example.test/insider" });
  assert.match(m, /^INSIDER_BASE_URL is set but INSIDER_API_KEY is not/);
  assert.match(m, /will not answer with demo data/);
  const c = await refused({ PITCH_BASE_URL: "https://api.example.test/catalog" });
  assert.match(c, /^PITCH_BASE_URL is set but PITCH_API_KEY is not/);
});

Deno.test("a key without its base URL is still an error naming the URL variable", async () => {
  const m = await refused({ INSIDER_API_KEY: SECRET });
  assert.match(m, /^INSIDER_API_KEY is set but INSIDER_BASE_URL is not; set both/);
});

Deno.test("near-miss names are named with a did-you-mean, as an error, when the real one is unset", async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ INSIDER_APIKEY: SECRET }, /INSIDER_APIKEY is set.*did you mean INSIDER_API_KEY\?/],
    [{ INSIDER_KEY: SECRET }, /INSIDER_KEY is set.*did you mean INSIDER_API_KEY\?/],
    [{ insider_api_key: SECRET }, /insider_api_key is set.*did you mean INSIDER_API_KEY\?/],
    [{ INSIDR_API_KEY: SECRET }, /INSIDR_API_KEY is set.*did you mean INSIDER_API_KEY\?/],
    [{ PITCH_APIKEY: SECRET }, /PITCH_APIKEY is set.*did you mean PITCH_API_KEY\?/],
    [{ PITCHCATALOG_KEY: SECRET }, /PITCHCATALOG_KEY is set.*did you mean PITCH_API_KEY\?/],
    [{ pitch_base_url: "https://api.example.test/catalog" }, /did you mean PITCH_BASE_URL\?/],
    // with the base URL set: the missing key's near miss is named in that error
    [
      { INSIDER_BASE_URL: "https://api.example.test/insider", INSIDER_TOKEN: SECRET },
      /INSIDER_API_KEY is not \(INSIDER_TOKEN is set: did you mean INSIDER_API_KEY\?\)/,
    ],
    // with the key set: the URL's near miss
    [
      { PITCH_API_KEY: SECRET, PITCH_BASEURL: "https://api.example.test/catalog" },
      /PITCH_BASE_URL is not; set both \(PITCH_BASEURL is set: did you mean PITCH_BASE_URL\?\)/,
    ],
  ];
  for (const [env, want] of cases) assert.match(await refused(env), want);
});

Deno.test("names that only look alike are not near misses; the real variable wins", async () => {
  const env = { PITCHFORK_TOKEN: "x", HOME: "/root", INSIDER_TRADES_SEEN: "1", PATH: "/bin" };
  const c = await connect({ env, quiet: true, stub: { seed: 1, scale: 0.1 } });
  assert.deepEqual(c.offline, { catalog: true, insider: true });
  assert.deepEqual(
    nearMisses(Object.keys(env), SERVICE_VARS.insider, "key"),
    [],
  );
  // the real variable set: a near miss beside it is left alone
  const live = await connect({
    env: {
      INSIDER_API_KEY: SECRET,
      INSIDER_BASE_URL: "https://api.example.test/insider",
      INSIDER_APIKEY: "old",
    },
    quiet: true,
  });
  assert.equal(live.offline.insider, false);
  assert.ok(!Deno.inspect(live).includes(SECRET));
});

Deno.test("from the process environment: a script with a misspelt key exits non-zero and says why", async () => {
  const dir = await Deno.makeTempDir();
  const script = `${dir}/s.ts`;
  await Deno.writeTextFile(
    script,
    `import { connect } from ${JSON.stringify(new URL("../mod.ts", import.meta.url).href)};
const { insider } = await connect({ quiet: true });
console.log((await insider.search({}).take(3)).length);`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-check", script],
    env: { INSIDER_APIKEY: SECRET, INSIDER_API_KEY: "", PITCH_API_KEY: "", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.notEqual(out.code, 0, text);
  assert.match(text, /ConfigurationError: INSIDER_APIKEY is set.*did you mean INSIDER_API_KEY\?/);
  assert.ok(!text.includes(SECRET));
  await Deno.remove(dir, { recursive: true });
});
