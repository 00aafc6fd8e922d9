/**
 * Worker of `file_lock_test.ts`'s race case: takes and releases one lock
 * (removed on release) `n` times and posts how many times it held it, or
 * the error that stopped it.
 *
 * @module
 */
import { lockFileSync } from "../../lib/shared/file_lock.ts";

self.onmessage = (e: MessageEvent<{ path: string; n: number }>) => {
  const { path, n } = e.data;
  let held = 0;
  try {
    for (let i = 0; i < n; i++) {
      const got = lockFileSync(path, { timeoutMs: 10_000, pauseMs: [0, 1], removeOnRelease: true });
      if (!("held" in got)) throw new Error(`try ${i}: ${JSON.stringify(got)}`);
      held++;
      got.held.release();
    }
    self.postMessage({ held });
  } catch (err) {
    self.postMessage({ held, error: String(err) });
  }
  self.close();
};
