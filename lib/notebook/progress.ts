/**
 * Live progress for long pulls and hydrations: in a Deno Jupyter kernel a
 * bar updated in place through display updates (`display_id`); in a
 * terminal a bar on stderr; nothing otherwise (CI logs stay clean). It shows
 * rows, pages, retries (from every client's transport), requests in flight,
 * waiting and throttled (`429`, from the clients' limiters), the rate, and an ETA
 * when the total is known. The same code runs under `deno run`, where
 * `Deno.jupyter` does not exist.
 *
 * @module
 */
import { type ProgressSink, type ProgressState, provideAutoSink } from "../http/progress_hook.ts";
import { escapeHtml } from "../shared/html.ts";
import { inJupyter } from "../shared/jupyter.ts";

/** One line of text for a state. */
export function describe(s: ProgressState): string {
  const rate = s.seconds > 0 ? s.rows / s.seconds : 0;
  const parts = [
    `${s.rows.toLocaleString("en-US")}${s.total ? `/${s.total.toLocaleString("en-US")}` : ""} rows`,
    `${s.pages} pages`,
    `${s.retries} retries`,
    s.inFlight !== undefined && !s.done && `${s.inFlight} in flight`,
    s.waiting && `${s.waiting} waiting`,
    s.throttled && `${s.throttled} throttled (429)`,
    s.cache && `cache ${s.cache.hits} hits/${s.cache.misses} misses`,
    `${Math.round(rate).toLocaleString("en-US")} rows/s`,
    s.total && rate > 0 && !s.done && `ETA ${Math.max(0, Math.ceil((s.total - s.rows) / rate))} s`,
    s.done && `done in ${s.seconds.toFixed(1)} s`,
  ];
  return `${s.label}: ${parts.filter((p) => typeof p === "string").join(" · ")}`;
}

/** The shape of `Deno.jupyter.broadcast`. */
export type Broadcast = (type: string, content: Record<string, unknown>) => Promise<void>;

/** A sink that updates one Jupyter display in place. */
export function jupyterSink(
  broadcast: Broadcast,
  id = `signalbook-${crypto.randomUUID()}`,
): ProgressSink {
  return {
    show(s, first) {
      const pct = s.total ? Math.min(100, (100 * s.rows) / s.total) : undefined;
      const bar = `<progress ${
        pct === undefined && !s.done ? "" : `value="${s.done ? 100 : pct?.toFixed(1)}" max="100"`
      } style="width:240px"></progress>`;
      const text = describe(s);
      const message = {
        data: {
          "text/html": `<div>${bar} <code>${escapeHtml(text)}</code></div>`,
          "text/plain": text,
        },
        metadata: {},
        transient: { display_id: id },
      };
      // the kernel's broadcast may or may not return a promise, and may throw: a display
      // failure must never break the work it reports on
      Promise.try(broadcast, first ? "display_data" : "update_display_data", message)
        .catch(() => {});
    },
  };
}

/** A sink that redraws one line on a terminal. */
export function ttySink(write: (text: string) => void): ProgressSink {
  return {
    show(s) {
      const width = 24;
      const frac = s.total ? Math.min(1, s.rows / s.total) : s.done ? 1 : (s.pages % width) / width;
      const filled = Math.round(frac * width);
      const bar = s.total || s.done
        ? "█".repeat(filled) + "░".repeat(width - filled)
        : "░".repeat(filled) + "█" + "░".repeat(Math.max(0, width - filled - 1));
      write(`\r\x1b[2K${bar} ${describe(s)}${s.done ? "\n" : ""}`);
    },
  };
}

/** The sink for this process: Jupyter in the kernel, stderr on a TTY, else none. */
export function autoSink(): ProgressSink | null {
  // the kernel's check (outside it, Deno.jupyter is absent or throws on access)
  if (inJupyter()) {
    const jupyter = (Deno as unknown as { jupyter: { broadcast: Broadcast } }).jupyter;
    return jupyterSink(jupyter.broadcast.bind(jupyter));
  }
  try {
    if (Deno.stderr.isTerminal()) {
      const enc = new TextEncoder();
      return ttySink((t) => Deno.stderr.writeSync(enc.encode(t)));
    }
  } catch {
    // no stderr access: no progress
  }
  return null;
}

// the notebook layer is the default display of every Progress opened below it
provideAutoSink(autoSink);
