/**
 * A notebook for the Deno kernel built from cell sources, as the benches and
 * tests that execute made-up notebooks write them (nbformat 4.5, every cell
 * a code cell not yet run).
 *
 * @module
 */

/** A code cell holding `source`, with no outputs yet. */
export function codeCell(source: string | string[]): {
  cell_type: "code";
  execution_count: null;
  metadata: Record<string, never>;
  outputs: never[];
  source: string | string[];
} {
  return { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source };
}

/** The `.ipynb` text of a Deno-kernel notebook with one code cell per source. */
export function denoNotebook(sources: readonly string[]): string {
  return JSON.stringify({
    cells: sources.map((s) => codeCell(s)),
    metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}
