/**
 * Runs snippet files one after another in this process (dynamic import, so
 * nodejs-polars and jsdom load once) and prints one JSON line per file:
 * `{ file, ok, error? }`. Used by docs_test.ts; cwd is a temporary directory.
 */
const files = Deno.args;
for (const file of files) {
  const t0 = performance.now();
  try {
    await import(new URL(`file://${file}`).href);
    console.log(JSON.stringify({ file, ok: true, ms: performance.now() - t0 }));
  } catch (e) {
    console.log(JSON.stringify({ file, ok: false, error: String((e as Error)?.stack ?? e) }));
  }
}
