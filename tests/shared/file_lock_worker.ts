/**
 * Worker of `file_lock_test.ts`'s race case: takes and releases one lock
 * (removed on release) `n` times and posts how many times it held it, or
 * the error that stopped it.
 *
 * @module
 */
import { lockFileSync } from "../../lib/shared/file_lock.ts";

/** This worker's side of its messages (the module is type-checked with the window's globals). */
const worker = self as unknown as {
  onmessage: (e: MessageEvent<{ path: string; n: number }>) => void;
  postMessage(message: { held: number; error?: string }): void;
  close(): void;
};

worker.onmessage = (e) => {
  const { path, n } = e.data;
  let held = 0;
  try {
    for (let i = 0; i < n; i++) {
      const got = lockFileSync(path, { timeoutMs: 10_000, pauseMs: [0, 1], removeOnRelease: true });
      if (!("held" in got)) throw new Error(`try ${i}: ${JSON.stringify(got)}`);
      held++;
      got.held.release();
    }
    worker.postMessage({ held });
  } catch (err) {
    worker.postMessage({ held, error: String(err) });
  }
  worker.close();
};
