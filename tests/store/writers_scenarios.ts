/** The concurrent-writer scenarios, shared by `writers_test.ts` and its child processes. */
import type { WriteMode } from "../../mod.ts";

/** Rows per partition each writer writes. */
export const ROWS = 5000;
/** Partitions of the "old" dataset the replacing scenarios start from. */
export const OLD_PARTS = 10;
/** The emulator both syncing children pull from. */
export const SYNC_STUB = { seed: 4, scale: 0.05 };
/** The range both syncing children pull. */
export const SYNC_RANGE = { from: "2025-11-01", to: "2026-11-20" };

/** A write: partitions `first`… (`parts` of them), in reverse order when `reverse`, and the mode. */
export interface ScenarioWrite {
  parts: number;
  first: number;
  reverse: boolean;
  mode: WriteMode;
}

/**
 * What writer `role` writes in `scenario`. Writer b goes through its
 * partitions in reverse order, so two writers running at once cross
 * midway: without a lock, each would win some partitions.
 */
export function scenarioWrite(scenario: string, role: string): ScenarioWrite {
  const reverse = role === "b";
  switch (scenario) {
    case "append":
      return { parts: 4, first: 0, reverse, mode: "append" };
    case "replace":
      return { parts: 8, first: 0, reverse, mode: "replace-partitions" };
    case "overwrite-replace":
      return role === "a"
        ? { parts: 6, first: 0, reverse, mode: "overwrite" }
        : { parts: 6, first: 3, reverse, mode: "replace-partitions" };
  }
  throw new Error(`unknown scenario ${scenario}`);
}

/** Whether the scenario starts from `OLD_PARTS` partitions of "old" rows. */
export const startsOld = (scenario: string): boolean => scenario !== "append";

/**
 * The outcomes a serial run allows (a then b, b then a), each as partition →
 * its versions (one entry per `ROWS` rows, sorted).
 */
export function serialOutcomes(scenario: string): Record<string, string[]>[] {
  const key = (p: number) => `p${String(p).padStart(2, "0")}`;
  return [["a", "b"], ["b", "a"]].map((order) => {
    let state: Record<string, string[]> = {};
    if (startsOld(scenario)) { for (let p = 0; p < OLD_PARTS; p++) state[key(p)] = ["old"]; }
    for (const v of order) {
      const w = scenarioWrite(scenario, v);
      if (w.mode === "overwrite") state = {};
      for (let p = w.first; p < w.first + w.parts; p++) {
        state[key(p)] = w.mode === "append" ? [...(state[key(p)] ?? []), v].sort() : [v];
      }
    }
    return Object.fromEntries(Object.entries(state).sort(([a], [b]) => a < b ? -1 : 1));
  });
}
