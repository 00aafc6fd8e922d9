/**
 * A headless Chromium driven over the DevTools protocol, for tests that look
 * at rendered pages as pixels: open a file, find elements, screenshot a
 * region, decode it (pngjs) into RGBA.
 *
 * Chromium runs with a fresh profile in a temporary folder and with the
 * network off for pages (nbconvert's HTML links CDN scripts; offline they
 * would only delay the load event).
 */
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { python } from "../../lib/notebook/_jupyter.ts";

/** Where Chromium is: `SIGNALBOOK_CHROMIUM`, else Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  return Deno.env.get("SIGNALBOOK_CHROMIUM") ?? "/usr/bin/chromium";
}

/** Why the screenshot test cannot run here, or null when it can. */
export async function chromiumMissing(): Promise<string | null> {
  try {
    const out = await new Deno.Command(chromiumPath(), {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return out.success ? null : `${chromiumPath()} --version failed`;
  } catch {
    return `${chromiumPath()} was not found`;
  }
}

/** An RGBA image. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

type Pending = { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void };

/** One page in a headless Chromium. */
export class Browser {
  #proc: Deno.ChildProcess;
  #ws: WebSocket;
  #dir: string;
  #id = 0;
  #pending = new Map<number, Pending>();
  #events: { method: string; resolve: () => void }[] = [];
  #session = "";

  private constructor(proc: Deno.ChildProcess, ws: WebSocket, dir: string) {
    this.#proc = proc;
    this.#ws = ws;
    this.#dir = dir;
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      if (msg.id !== undefined) {
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`${msg.error.message} (${msg.error.code})`));
        else p?.resolve(msg.result ?? {});
      } else if (msg.method) {
        const i = this.#events.findIndex((w) => w.method === msg.method);
        if (i >= 0) this.#events.splice(i, 1)[0].resolve();
      }
    };
  }

  /** Starts Chromium with a new profile folder and opens one blank page. */
  static async launch(width = 1100, height = 900): Promise<Browser> {
    const dir = await Deno.makeTempDir({ prefix: "signalbook-chromium-" });
    const proc = new Deno.Command(chromiumPath(), {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        `--user-data-dir=${dir}`,
        "--remote-debugging-port=0",
        "about:blank",
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const url = await devtoolsUrl(proc.stderr);
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`cannot connect to Chromium at ${url}`));
    });
    const browser = new Browser(proc, ws, dir);
    const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
    browser.#session = String(sessionId);
    await browser.send("Page.enable");
    await browser.send("Network.enable");
    await browser.send("Network.setBlockedURLs", { urls: ["http://*", "https://*"] });
    await browser.send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return browser;
  }

  /** Sends one DevTools command (to the page once attached). */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = ++this.#id;
    const msg: Record<string, unknown> = { id, method, params };
    if (this.#session) msg.sessionId = this.#session;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify(msg));
    });
  }

  /** Opens a local file and waits for its load event. */
  async open(path: string): Promise<void> {
    const loaded = new Promise<void>((resolve) =>
      this.#events.push({ method: "Page.loadEventFired", resolve })
    );
    await this.send("Page.navigate", { url: `file://${path}` });
    await loaded;
  }

  /** Evaluates an expression in the page; returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    const result = r.result as { value: T };
    if (r.exceptionDetails) {
      throw new Error(`evaluate failed: ${JSON.stringify(r.exceptionDetails)}`);
    }
    return result.value;
  }

  /** Screenshot of a page region (CSS pixels, page coordinates), decoded to RGBA. */
  async shot(clip: { x: number; y: number; width: number; height: number }): Promise<Pixels> {
    const r = await this.send("Page.captureScreenshot", {
      format: "png",
      clip: { ...clip, scale: 1 },
      captureBeyondViewport: true,
    });
    const png = PNG.sync.read(Buffer.from(String(r.data), "base64"));
    return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
  }

  /** Ends Chromium and removes its profile folder. */
  async close(): Promise<void> {
    try {
      this.#ws.close();
    } catch { /* already closed */ }
    try {
      this.#proc.kill("SIGKILL");
    } catch { /* already ended */ }
    await this.#proc.status;
    await Deno.remove(this.#dir, { recursive: true }).catch(() => {});
  }
}

async function devtoolsUrl(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Chromium exited before listening:\n${seen}`);
    seen += value;
    const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
    if (m) {
      // keep draining stderr so Chromium never blocks on a full pipe
      (async () => {
        while (!(await reader.read()).done) { /* discard */ }
      })().catch(() => {});
      return m[1];
    }
  }
}

/** WCAG relative luminance of an sRGB colour (0–255 channels). */
export function luminance(r: number, g: number, b: number): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two luminances (1 to 21). */
export function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * The text contrast of an image region: its background is its most common
 * colour; its ink, the pixels that differ from it (contrast 1.25:1 or more).
 * Returns the WCAG contrast between the background and the ink's 90th
 * percentile (the core of the glyphs, past their anti-aliased edges; 1 when
 * there is no ink), and the share of the region's pixels that stand out by at
 * least 3:1 (0 when the region is blank).
 */
export function textContrast(px: Pixels): { ratio: number; ink: number } {
  const counts = new Map<number, number>();
  const n = px.width * px.height;
  for (let i = 0; i < n; i++) {
    const k = (px.data[4 * i] << 16) | (px.data[4 * i + 1] << 8) | px.data[4 * i + 2];
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const bgKey = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const bg = luminance(bgKey >> 16, (bgKey >> 8) & 255, bgKey & 255);
  const ink: number[] = [];
  let strong = 0;
  for (let i = 0; i < n; i++) {
    const c = contrast(bg, luminance(px.data[4 * i], px.data[4 * i + 1], px.data[4 * i + 2]));
    if (c >= 1.25) ink.push(c);
    if (c >= 3) strong++;
  }
  ink.sort((a, b) => a - b);
  return { ratio: ink.length ? ink[Math.floor(0.9 * (ink.length - 1))] : 1, ink: strong / n };
}

/** Why nbconvert cannot run here, or null when it can. */
export async function nbconvertMissing(): Promise<string | null> {
  try {
    const out = await new Deno.Command(python(), {
      args: ["-c", "import nbconvert"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success ? null : `${python()} cannot import nbconvert`;
  } catch {
    return `${python()} was not found`;
  }
}

/** Renders notebooks to HTML with nbconvert in a theme ("light" or "dark") into `out`. */
export async function nbconvertHtml(paths: string[], theme: string, out: string): Promise<void> {
  const res = await new Deno.Command(python(), {
    args: [
      "-m",
      "nbconvert",
      "--to",
      "html",
      `--HTMLExporter.theme=${theme}`,
      "--output-dir",
      out,
      ...paths,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!res.success) throw new Error(`nbconvert failed:\n${new TextDecoder().decode(res.stderr)}`);
}
