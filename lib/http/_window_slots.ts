/**
 * The slots of a parallel pull: at most `size` requests in flight; a free
 * slot goes to the window nearest the reader that may go (the order and the
 * rule come from `eligible` in `_window_plan.ts`); a window's gap probe
 * takes only a slot no window wants. Granting is re-entrant safe: a grant
 * asked for while one runs is run again after it.
 *
 * @module
 */
import type { Eligible } from "./_window_plan.ts";
import type { Window } from "./_window.ts";

/** A window as the slots see it: waiting for a slot (`want`) or not, its gap probe waiting or not. */
export type SlotWindow = Pick<Window<unknown>, "want" | "state" | "probing">;

/** What the slots ask of the pull. */
export interface SlotHooks<W> {
  /** The windows that may go, nearest the reader first (see `eligible`). */
  eligible(): Iterable<Eligible<W>>;
  /** Whether `w`, waiting with `fetched` rows before it, is to stop (pull stopped, window dropped, limit reached). */
  stopped(w: W, fetched: number): boolean;
  /** Starts a queued window (cut to its share first). */
  start(w: W): void;
}

/**
 * Who may fetch next.
 *
 * @example
 * ```ts
 * import { WindowSlots } from "./_window_slots.ts";
 * const w = { state: "running" as const };
 * const slots = new WindowSlots(1, {
 *   eligible: () => [{ w, ok: true, fetched: 0 }],
 *   stopped: () => false,
 *   start: () => {},
 * });
 * console.log(await slots.take(w), slots.inFlight); // true 1
 * ```
 */
export class WindowSlots<W extends SlotWindow> {
  /** Requests in flight. */
  inFlight = 0;
  #granting = false;
  #again = false;

  /** Slots for `size` requests at once. */
  constructor(readonly size: number, private readonly hooks: SlotHooks<W>) {}

  /** Waits for a slot for `w`'s next request; false: the window stops. */
  take(w: W): Promise<boolean> {
    return new Promise<boolean>((r) => {
      w.want = r;
      this.dispatch();
    });
  }

  /** A request ended: its slot is free (granted at the next dispatch). */
  release(): void {
    this.inFlight--;
  }

  /** Answers a window waiting for a slot (if it is): go (true) or stop (false). */
  answer(w: W, go: boolean): void {
    const f = w.want;
    w.want = undefined;
    f?.(go);
  }

  /** Grants free slots to the windows waiting for one (and starts queued ones), nearest the head first. */
  dispatch(): void {
    if (this.#granting) {
      this.#again = true;
      return;
    }
    this.#granting = true;
    try {
      do {
        this.#again = false;
        this.#grant();
      } while (this.#again);
    } finally {
      this.#granting = false;
    }
  }

  #give(w: W): void {
    if (!w.want) return;
    this.inFlight++;
    this.answer(w, true);
  }

  #grant(): void {
    /** Windows whose gap probe waits: they take only the slots no window wants. */
    const probes: W[] = [];
    for (const { w, ok, fetched } of this.hooks.eligible()) {
      if (this.inFlight >= this.size) break;
      if (w.want && this.hooks.stopped(w, fetched)) {
        // done (the rows before it reach the limit) or stopped: let its loop end
        this.answer(w, false);
        continue;
      }
      if (!ok) break;
      if (w.probing) {
        probes.push(w);
        continue;
      }
      if (w.state === "queued") this.hooks.start(w);
      this.#give(w);
    }
    for (const w of probes) {
      if (this.inFlight >= this.size) break;
      this.#give(w);
    }
  }

  /** Slots no window near the head would use now (besides `w`, about to ask for one). */
  idle(w: W): number {
    let busy = this.inFlight + 1;
    for (const x of this.hooks.eligible()) {
      if (!x.ok) break;
      if (x.w !== w && (x.w.state === "queued" || x.w.want)) busy++;
    }
    return Math.max(0, this.size - busy);
  }
}
