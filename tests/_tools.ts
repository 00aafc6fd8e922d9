/**
 * Tests that need tools outside Deno (Jupyter, nbconvert, Chromium): where
 * this machine lacks one they are skipped, with a notice saying how to get
 * it, unless `SIGNALBOOK_REQUIRE_JUPYTER=1` (as in CI), where each fails
 * naming what is missing.
 */

/** Whether the tool-backed tests must run (`SIGNALBOOK_REQUIRE_JUPYTER=1`). */
export const TOOLS_REQUIRED = Deno.env.get("SIGNALBOOK_REQUIRE_JUPYTER") === "1";

/**
 * A `Deno.test` for tests that need `needs` (e.g. "Jupyter"); `missing` is
 * what this machine lacks (null: nothing). `skipped` and `enable`, if
 * given, print one notice when the tests are skipped:
 * `<skipped> skipped: <missing>. To enable: <enable>`.
 */
export function toolTest(
  missing: string | null,
  needs: string,
  notice?: { skipped: string; enable: string },
): (name: string, fn: () => Promise<void>) => void {
  if (missing && !TOOLS_REQUIRED && notice) {
    console.warn(`${notice.skipped} skipped: ${missing}. To enable: ${notice.enable}`);
  }
  return (name, fn) =>
    Deno.test({
      name,
      ignore: missing !== null && !TOOLS_REQUIRED,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: async () => {
        if (missing) {
          throw new Error(
            `this test needs ${needs} (SIGNALBOOK_REQUIRE_JUPYTER=1), but ${missing}`,
          );
        }
        await fn();
      },
    });
}
