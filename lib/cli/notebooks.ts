/**
 * `deno task notebooks`: executes notebooks through real Jupyter with the
 * workaround for the Deno kernel's late outputs (lib/notebook/execute.py)
 * and writes their outputs back — the repo's own (`notebooks/`, on the
 * offline emulator) or any `.ipynb` anywhere on disk.
 *
 * Why not `jupyter nbconvert --to notebook --execute`: the Deno kernel can
 * publish a cell's last outputs just after it reports "idle", and stock
 * nbclient stops listening at idle, so outputs go missing at random, a
 * different few on each run, with or without signalbook in the notebook.
 * This runner keeps listening briefly after idle (0.5 s per cell), so every
 * output lands (tests/cli/notebooks_runner_test.ts: all 31 outputs of 31
 * quick cells).
 *
 * Decisions: relative paths are read from the folder the command was typed
 * in (`INIT_CWD`, which `deno task` sets, and keeps when one task runs
 * another: there, the outer task's folder), not the repo; a notebook of yours
 * keeps `PITCH_*` / `INSIDER_*` keys from the environment, while the repo's
 * own always run offline; a failing cell stops the run, as "Run All" does,
 * and the notebook is still written with the outputs so far (error
 * included), then the command exits 1.
 *
 * @module
 */
import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { execute, installKernel, jupyterMissing, KERNEL_ENV } from "../notebook/_jupyter.ts";
import { didYouMean } from "../shared/suggest.ts";
import { CliError, parseFlags } from "./args.ts";
import { envVar } from "../shared/env.ts";

/** The help text of `deno task notebooks`. */
export const NOTEBOOKS_HELP =
  `Usage: deno task notebooks [NOTEBOOK…] [--out PATH] [--timeout S] [--keep-going]
       deno task notebooks --install

Executes notebooks through Jupyter (Deno kernel) and writes their outputs back.
  (no NOTEBOOK)        every notebook in the repo's notebooks/, in place, offline
  02 05-insider        the repo notebooks whose file name starts with these
  path/to/any.ipynb    any notebook on disk (relative to where you typed the command)
  --out PATH           write there instead of in place: a file for one notebook,
                       a folder for several
  --timeout S          seconds one cell may run, 1 to 86400 (default 600)
  --keep-going         run every cell even after one fails (default: stop there)
  --install            install the Deno kernel for Jupyter (deno jupyter --install)
                       with ${
    Object.entries(KERNEL_ENV).map(([k, v]) => `${k}=${v}`).join(" ")
  } in its kernel.json env, then exit
Exit code: 0 when every cell ran, 1 when a cell failed (its notebook is still
written), 2 for a usage error.`;

const FLAG_SPECS = {
  out: { type: "string" },
  timeout: { type: "string" },
  "keep-going": { type: "boolean" },
  install: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** One notebook to run: where it is read, where it is written, whether it is the repo's. */
interface Job {
  src: string;
  dst: string;
  repo: boolean;
}

/** The notebooks the arguments name, or a usage error. */
export function plan(
  positionals: string[],
  out: string | undefined,
  cwd: string,
  repoDir: string,
): Job[] {
  const repoNames = [...Deno.readDirSync(repoDir)].map((e) => e.name)
    .filter((n) => n.endsWith(".ipynb")).sort();
  const sources: { src: string; repo: boolean }[] = [];
  for (const arg of positionals.length ? positionals : [""]) {
    const path = isAbsolute(arg) ? arg : resolve(cwd, arg);
    if (arg.endsWith(".ipynb") || arg.includes("/")) {
      if (!statSync(path, { throwIfNoEntry: false })?.isFile()) {
        throw new Error(`${JSON.stringify(arg)}: no such notebook (looked at ${path})`);
      }
      if (!arg.endsWith(".ipynb")) throw new Error(`${JSON.stringify(arg)} is not an .ipynb file`);
      sources.push({ src: path, repo: resolve(path, "..") === resolve(repoDir) });
      continue;
    }
    const hits = repoNames.filter((n) => n.startsWith(arg));
    if (!hits.length) {
      const close = didYouMean(arg, repoNames.map((n) => n.replace(/\.ipynb$/, "")));
      throw new Error(
        `no notebook in notebooks/ starts with ${
          JSON.stringify(arg)
        }${close}; a notebook elsewhere is named by its path, e.g. ./analysis.ipynb`,
      );
    }
    sources.push(...hits.map((n) => ({ src: join(repoDir, n), repo: true })));
  }
  const unique = [...new Map(sources.map((s) => [s.src, s])).values()];
  if (out !== undefined && unique.length > 1 && out.endsWith(".ipynb")) {
    throw new Error(
      `--out ${
        JSON.stringify(out)
      } names one file, but ${unique.length} notebooks run: give a folder`,
    );
  }
  const target = out === undefined ? undefined : isAbsolute(out) ? out : resolve(cwd, out);
  return unique.map(({ src, repo }) => ({
    src,
    repo,
    dst: target === undefined
      ? src
      : unique.length === 1 && target.endsWith(".ipynb")
      ? target
      : join(target, src.split("/").pop()!),
  }));
}

/** `deno task notebooks [NOTEBOOK…] [--out PATH] [--timeout S] [--keep-going]`. */
export async function main(args: string[] = Deno.args): Promise<void> {
  // bad flags are usage errors as in every command (see args.ts): all at once, exit 2
  const positionals: string[] = [];
  const flags = parseFlags("notebooks", NOTEBOOKS_HELP, FLAG_SPECS, args, positionals);
  const values = flags.values;
  if (values.install) {
    if (positionals.length) {
      flags.fail(`--install takes no notebook (got ${JSON.stringify(positionals[0])})`);
    }
    return flags.run(async () => console.log(`Deno kernel installed: ${await installKernel()}`));
  }
  // read as every command reads a number (decimal digits; no 0x10, 1e3 or .5)
  const timeoutS = flags.num("timeout", values.timeout, 600, 1, 86_400);
  const cwd = envVar("INIT_CWD") ?? Deno.cwd();
  const repoDir = new URL("../../notebooks/", import.meta.url).pathname;
  const jobs = flags.attempt(() => plan(positionals, values.out, cwd, repoDir), []);
  // a runtime failure (no Jupyter, Jupyter itself failing) is one line, exit 1, as in every command
  await flags.run(() => runAll(jobs, timeoutS, !values["keep-going"]));
}

/** Runs the notebooks; exits 1 when a cell failed (its notebook is still written). */
async function runAll(jobs: Job[], timeoutS: number, stopOnError: boolean): Promise<void> {
  const missing = await jupyterMissing();
  if (missing) {
    throw new CliError(
      `${missing}. Install: apt-get install python3-nbclient python3-nbformat jupyter-client && deno task notebooks --install`,
    );
  }
  let failed = 0;
  for (const job of jobs) {
    const t0 = performance.now();
    await Deno.mkdir(resolve(job.dst, ".."), { recursive: true });
    const summary = await execute(job.src, job.dst, {
      timeoutS,
      stopOnError,
      keepKeys: !job.repo,
    });
    const where = job.dst === job.src ? "" : ` → ${job.dst}`;
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    if (summary.errors.length) {
      failed++;
      const e = summary.errors[0];
      console.error(
        `${job.src}: code cell ${e.cell} of ${summary.cells} failed: ${e.ename}: ${e.evalue}${
          summary.errors.length > 1 ? ` (and ${summary.errors.length - 1} more)` : ""
        }; outputs so far written${where || " in place"}`,
      );
    } else {
      const peak =
        (summary.kernelPeakMb ? `, kernel peak ${Math.round(summary.kernelPeakMb)} MiB` : "") +
        (summary.childrenPeakMb
          ? `, child processes peak ${Math.round(summary.childrenPeakMb)} MiB, together ${
            Math.round(summary.wholePeakMb ?? NaN)
          } MiB`
          : "");
      console.log(`${job.src}: ${summary.cells} code cells executed in ${secs} s${peak}${where}`);
    }
  }
  if (failed) Deno.exit(1);
}

if (import.meta.main) await main();
