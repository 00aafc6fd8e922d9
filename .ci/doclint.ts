/**
 * `deno doc --lint mod.ts`, failing on every finding except one kind:
 * `private-type-ref` findings that name nodejs-polars types (`pl`,
 * `DataFrame`, `LazyDataFrame`, `DataType`, `Series`, `Expr`, and the same
 * as `pl.DataFrame` … where they are named through `lib/frames/_polars.ts`,
 * which re-exports nodejs-polars evaluated at its first use) or Observable
 * Plot types (`Plot`, `PlotOptions`). deno doc
 * flags every npm type used in a public signature, and signalbook returns
 * real Polars frames on purpose (wrapping them would hide Polars' API).
 *
 * @module
 */
const POLARS =
  /references private type '(pl|(pl\.)?(DataFrame|LazyDataFrame|DataType|Series|Expr)|Plot|PlotOptions)'$/;
const out = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", "mod.ts"],
  stdout: "piped",
  stderr: "piped",
  env: { NO_COLOR: "1" },
}).output();
const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
const findings = text.split("\n").filter((l) => /^error\[/.test(l));
const real = findings.filter((l) =>
  !(l.startsWith("error[private-type-ref]") && POLARS.test(l.trim()))
);
if (real.length) {
  console.error(text);
  console.error(`doc lint: ${real.length} finding(s) besides nodejs-polars type references`);
  Deno.exit(1);
}
console.log(`doc lint: clean (${findings.length} references to nodejs-polars types allowed)`);
