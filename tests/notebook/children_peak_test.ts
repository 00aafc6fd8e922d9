/**
 * What the notebook runner counts (`execute`, lib/notebook/execute.py): the
 * kernel's peak RSS and, beside it, the largest sum of the peaks of the
 * processes the kernel started while they run (read every 0.1 s: one that
 * exits within its cell counts too), so a notebook's memory is counted
 * whole (the light bench adds the two).
 */
import assert from "node:assert/strict";
import { execute, jupyterMissing } from "../../lib/notebook/_jupyter.ts";
import { toolTest } from "../_tools.ts";
import { denoNotebook } from "../../bench/_notebook.ts";

const jupyterTest = toolTest(await jupyterMissing(), "Jupyter");

jupyterTest("the runner counts the kernel's child processes beside the kernel", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sb-children-peak-" });
  try {
    // a child that holds about 40 MiB until the kernel is gone (its stdin closes with it)
    const child = `const hold = new Deno.Command(Deno.execPath(), {
  args: ["eval", "const a = new Uint8Array(40 * 2 ** 20).fill(1); for await (const _ of Deno.stdin.readable) {} console.log(a.length)"],
  stdin: "piped", stdout: "null", stderr: "null",
}).spawn();
await new Promise((r) => setTimeout(r, 1500));
hold.pid > 0`;
    await Deno.writeTextFile(`${dir}/with.ipynb`, denoNotebook([child]));
    await Deno.writeTextFile(`${dir}/without.ipynb`, denoNotebook(["1 + 1"]));
    // a child that holds about 40 MiB for a second and exits within its cell
    const brief = `(await new Deno.Command(Deno.execPath(), {
  args: ["eval", "const a = new Uint8Array(40 * 2 ** 20).fill(1); await new Promise((r) => setTimeout(r, 1000)); console.log(a.length)"],
}).output()).success`;
    await Deno.writeTextFile(`${dir}/brief.ipynb`, denoNotebook([brief, "1 + 1"]));
    const withBrief = await execute(`${dir}/brief.ipynb`, `${dir}/brief.out.ipynb`);
    assert.deepEqual(withBrief.errors, []);
    assert.ok((withBrief.childrenPeakMb ?? 0) >= 40, `brief child ${withBrief.childrenPeakMb} MiB`);
    // the kernel and the child together at one reading: more than the kernel alone
    assert.ok(
      (withBrief.wholePeakMb ?? 0) > (withBrief.kernelPeakMb ?? Infinity),
      `together ${withBrief.wholePeakMb}, kernel ${withBrief.kernelPeakMb} MiB`,
    );
    const withChild = await execute(`${dir}/with.ipynb`, `${dir}/with.out.ipynb`);
    const without = await execute(`${dir}/without.ipynb`, `${dir}/without.out.ipynb`);
    assert.deepEqual(withChild.errors, []);
    assert.ok(
      (withChild.childrenPeakMb ?? 0) >= 40,
      `children peak ${withChild.childrenPeakMb} MiB`,
    );
    assert.equal(without.childrenPeakMb, 0);
    assert.equal(without.wholePeakMb, without.kernelPeakMb);
    assert.ok((without.kernelPeakMb ?? 0) > 50, `kernel peak ${without.kernelPeakMb} MiB`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
