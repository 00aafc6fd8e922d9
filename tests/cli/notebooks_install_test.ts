/**
 * `deno task notebooks --install`: the Deno kernel's spec, installed with
 * `MALLOC_ARENA_MAX=2`, `MALLOC_MMAP_THRESHOLD_=131072` and `DENO_V8_FLAGS=--memory-saver-mode,--no-maglev,--max-semi-space-size=1` in its `env`
 * (the kernel takes no `--v8-flags`, so its `kernel.json` is where a setting
 * reaches it), and the runner passes the same to kernels installed otherwise.
 */
import assert from "node:assert/strict";
import { KERNEL_ENV } from "../../lib/notebook/_jupyter.ts";

const CLI = new URL("../../lib/cli/notebooks.ts", import.meta.url).pathname;

async function run(args: string[], home: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    env: {
      HOME: home,
      XDG_DATA_HOME: `${home}/share`,
      // the Deno cache of this process (a new HOME would start an empty one)
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

const WANT = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  DENO_V8_FLAGS: "--memory-saver-mode,--no-maglev,--max-semi-space-size=1",
};

Deno.test("--install writes the Deno kernel spec with the allocator and V8 settings in its env", async () => {
  const home = await Deno.makeTempDir();
  try {
    const r = await run(["--install"], home);
    assert.equal(r.code, 0, r.stderr);
    const file = `${home}/share/jupyter/kernels/deno/kernel.json`;
    assert.match(r.stdout, new RegExp(`Deno kernel installed: ${file}`));
    const spec = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(spec.env, WANT);
    assert.deepEqual(KERNEL_ENV, WANT);
    assert.equal(spec.argv[1], "jupyter"); // Deno's own spec, kept
    assert.ok(spec.argv.includes("--kernel"));
    // again: still one env, Deno's spec rewritten (--force), ours added again
    assert.equal((await run(["--install"], home)).code, 0);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)).env, WANT);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("--install with a notebook is a usage error naming it", async () => {
  const home = await Deno.makeTempDir();
  try {
    const r = await run(["--install", "02"], home);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--install takes no notebook \(got "02"\)/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("the kernel's V8 flags are flags this Deno accepts (a kernel with a bad one never starts)", async () => {
  const run = (flags: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", "console.log(1)"],
      env: { DENO_V8_FLAGS: flags },
      stdout: "piped",
      stderr: "piped",
    }).output();
  const ok = await run(KERNEL_ENV.DENO_V8_FLAGS);
  assert.equal(ok.code, 0, new TextDecoder().decode(ok.stderr));
  // the check can fail: a misspelt flag is refused
  const bad = await run("--memory-saver-mod");
  assert.notEqual(bad.code, 0);
  assert.match(new TextDecoder().decode(bad.stderr), /did not recognize flag/);
});
