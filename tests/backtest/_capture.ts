/** Test helper: what a synchronous call prints on stderr (notices), with its result. */
export function captureStderr<T>(fn: () => T): { value: T; said: string[] } {
  const said: string[] = [];
  const orig = console.error;
  console.error = (...a: unknown[]) => said.push(a.join(" "));
  try {
    return { value: fn(), said };
  } finally {
    console.error = orig;
  }
}
