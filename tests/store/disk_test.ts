/**
 * A full disk is a DiskFullError naming the file and the free space, for
 * writeDataset and sync alike. Writes fail for real, without filling the
 * machine's disk: a child process runs under a small file-size limit
 * (`setrlimit(RLIMIT_FSIZE)`, SIGXFSZ ignored, so a write past it fails with EFBIG) with
 * an injected free-space probe; as root on Linux, a 512 KB tmpfs is also
 * filled for real.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DiskFullError, scanDataset, sync, writeDataset } from "../../mod.ts";
import { offline } from "../_util.ts";
import { formatBytes, isNoSpace } from "../../lib/store/disk.ts";
import { bigFrame } from "./write_frames.ts";

const unix = Deno.build.os !== "windows";

interface ChildError {
  ok?: boolean;
  name?: string;
  message?: string;
  path?: string;
  freeBytes?: number | null;
  cause?: string;
}

/**
 * Runs disk_child.ts under a file-size limit of `kb` KiB. The child sets the
 * limit itself once its modules are loaded: under `ulimit -f` from the start,
 * Deno's own setup of `node_modules` (when another process of the suite has
 * just changed it) failed to write and the child could not load its imports.
 */
async function limited(kb: number, ...args: string[]): Promise<ChildError> {
  const script = join(import.meta.dirname!, "disk_child.ts");
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      `trap '' XFSZ; exec "$0" run -A "$@"`,
      Deno.execPath(),
      script,
      String(kb),
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(text.split("\n").at(-1)!);
}

const leftovers = async (dir: string) => {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name));
      else if (e.name.endsWith(".tmp")) out.push(e.name);
    }
  };
  await walk(dir);
  return out;
};

Deno.test({
  name:
    "writeDataset on a full disk: DiskFullError naming the file and the free space; the old rows stay",
  ignore: !unix,
  fn: async () => {
    const dir = join(await Deno.makeTempDir(), "ds");
    await writeDataset(bigFrame("old"), dir, { partitionBy: ["k"] });
    const got = await limited(32, "write", dir, "5000");
    assert.equal(got.name, "DiskFullError", JSON.stringify(got));
    assert.match(got.path!, new RegExp(`^${dir}/k=p[01]/data\\.parquet$`));
    assert.equal(got.freeBytes, 5000);
    assert.equal(
      got.message,
      `writeDataset: no space left on the disk writing ${got.path} (free: 5.0 kB); ` +
        "free some space or write elsewhere, then rerun",
    );
    assert.doesNotMatch(got.message!, /thrift/);
    const df = (await scanDataset(dir)).collectSync();
    assert.equal(df.height, 20_000);
    assert.deepEqual(df.getColumn("version").unique().toArray(), ["old"]);
    assert.deepEqual(await leftovers(dir), []);
    // single-file exports too
    const file = join(dir, "export.parquet");
    const exp = await limited(32, "parquet", file, "5000");
    assert.equal(exp.name, "DiskFullError", JSON.stringify(exp));
    assert.equal(exp.path, file);
    assert.match(
      exp.message!,
      /^writeParquet: no space left on the disk writing .* \(free: 5\.0 kB\)/,
    );
    assert.deepEqual(await leftovers(dir), []);
  },
});

Deno.test({
  name: "a write error with room to spare keeps its own message (not a DiskFullError)",
  ignore: !unix,
  fn: async () => {
    const dir = join(await Deno.makeTempDir(), "ds");
    const got = await limited(32, "write", dir);
    assert.equal(got.name, "Error");
    assert.match(got.message!, /File too large/);
  },
});

Deno.test({
  name: "sync on a full disk stops at once with a DiskFullError, not an AggregateError of months",
  ignore: !unix,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const got = await limited(16, "sync", dir, "12345");
    assert.equal(got.name, "DiskFullError", JSON.stringify(got));
    assert.match(got.path!, /insider_trades\/year=2026\/month=\d{1,2}\/data\.parquet$/);
    assert.match(got.message!, /^sync: no space left on the disk writing .* \(free: 12 kB\)/);
    assert.deepEqual(await leftovers(dir), []);
  },
});

Deno.test("isNoSpace knows ENOSPC and EDQUOT by code and message; sizes read as df -H prints them", () => {
  assert.ok(isNoSpace(Object.assign(new Error("x"), { code: "ENOSPC" })));
  assert.ok(isNoSpace(new Error("No space left on device (os error 28)")));
  assert.ok(isNoSpace(new Error("Disk quota exceeded (os error 122)")));
  assert.ok(!isNoSpace(new Error("parquet: Invalid thrift: transport error")));
  assert.ok(!isNoSpace(new Error("File too large (os error 27)")));
  assert.deepEqual(
    [0, 999, 5000, 12_345, 92_160, 4_500_000_000].map(formatBytes),
    ["0 bytes", "999 bytes", "5.0 kB", "12 kB", "92 kB", "4.5 GB"],
  );
});

/** A 512 KB tmpfs, when this process may mount one (root on Linux); else null. */
async function tinyDisk(): Promise<string | null> {
  if (Deno.build.os !== "linux" || Deno.uid() !== 0) return null;
  const at = await Deno.makeTempDir({ prefix: "signalbook-tiny-" });
  const mount = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", "size=512k", "tmpfs", at],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => null);
  if (mount?.success) return at;
  await Deno.remove(at);
  return null;
}

const tiny = await tinyDisk();

Deno.test({
  name:
    "a real full disk (512 KB tmpfs): writeDataset and sync fail with DiskFullError and the free space",
  ignore: tiny === null,
  fn: async () => {
    try {
      const dir = join(tiny!, "ds");
      await assert.rejects(
        writeDataset(bigFrame("a", 60_000), dir, { partitionBy: ["k"] }),
        (e: unknown) => {
          assert.ok(e instanceof DiskFullError, String(e));
          assert.ok(e.path.startsWith(dir), e.path);
          assert.ok(e.freeBytes !== null && e.freeBytes < 512 * 1024, String(e.freeBytes));
          assert.match(e.message, /^writeDataset: no space left on the disk writing .* \(free: \d/);
          return true;
        },
      );
      const { insider } = await offline({ seed: 2, scale: 0.2 });
      await assert.rejects(
        sync({
          dir: join(tiny!, "s"),
          from: "2025-01-01",
          to: "2026-10-31",
          insider,
          progress: false,
        }),
        (e: unknown) => {
          assert.ok(e instanceof DiskFullError, String(e));
          assert.match(e.message, /^sync: no space left on the disk writing .*tiny.*/);
          return true;
        },
      );
      assert.deepEqual(await leftovers(tiny!), []);
    } finally {
      await new Deno.Command("umount", { args: [tiny!] }).output();
      await Deno.remove(tiny!, { recursive: true });
    }
  },
});
