/**
 * `connect()`: both clients from the environment, or from the in-process
 * emulator when no key is set.
 *
 * Environment: `PITCH_API_KEY` / `PITCH_BASE_URL` and `INSIDER_API_KEY` /
 * `INSIDER_BASE_URL`. A service with neither variable set uses the
 * in-process emulator with its demo key; the library says so once per
 * process, as a quiet note (plain text under the cell in a notebook, stderr
 * in a script), without printing any key.
 *
 * Never demo data for a live configuration (`connect/env.ts`): a key
 * without its base URL, a base URL without its key, or a near-miss name
 * (`INSIDER_APIKEY`, `insider_api_key`, `INSIDER_KEY`, `INSIDER_API`, …; other tools' names such
 * as `VSCODE_INSIDERS_HOST` or `CATALOG_URL` never block) while the real
 * variable is unset is a `ConfigurationError` naming the variables (never a
 * value), whatever `quiet` says. `quiet` silences the notice, never the fact:
 * whatever is built from the emulator's answers carries the demo mark
 * (`shared/demo.ts`): frames display a "DEMO DATA" badge, charts and
 * `report.md` say "offline emulator", and `Connection.offline` says which
 * services are offline.
 *
 * @module
 */
import { CatalogClient } from "./catalog/client.ts";
import { InsiderClient } from "./insider/client.ts";
import type { ClientOptions, FetchLike } from "./http/transport.ts";
import { createStub, DEMO_KEYS, type Stub, type StubOptions } from "./stub/mod.ts";
import { notice } from "./shared/notice.ts";
import { markDemo } from "./shared/demo.ts";
import { dayText } from "./shared/values/mod.ts";
import { type EnvSource, readEnvironment, SERVICE_VARS, serviceConfig } from "./connect/env.ts";
import "./notebook/progress.ts"; // the default progress display (Jupyter or terminal)

/** Options of {@link connect}. */
export interface ConnectOptions extends
  Partial<
    Pick<
      ClientOptions,
      | "maxRetries"
      | "timeoutMs"
      | "onRetry"
      | "cache"
      | "maxInFlight"
      | "requestsPerSecond"
      | "maxResponseBytes"
    >
  > {
  /**
   * The environment: a lookup function, or a record of variables (default
   * the process environment, tolerant of a missing permission). A record (or
   * the process environment) also lets near-miss names be found; see
   * `connect/env.ts`.
   */
  env?: EnvSource;
  /** Options of the in-process emulator, when it is used. */
  stub?: StubOptions;
  /**
   * Say nothing about the emulator (default false). The notice only: what is
   * built from demo data is still marked as such, and configuration errors
   * are still thrown.
   */
  quiet?: boolean;
  /** The `fetch` live services are reached with (default `globalThis.fetch`). */
  fetch?: FetchLike;
  /**
   * Wraps the `fetch` each client uses (the live one or the emulator's), e.g.
   * to time calls or read headers; `checkServices()` uses it.
   */
  instrument?: (fetch: FetchLike, service: "catalog" | "insider") => FetchLike;
}

/** Both clients, and whether each is on the emulator. */
export interface Connection {
  /** Pitch catalog client. */
  catalog: CatalogClient;
  /** Insider-trades client. */
  insider: InsiderClient;
  /** Services served by the in-process emulator. */
  offline: { catalog: boolean; insider: boolean };
  /** The emulator, when either service uses it. */
  stub?: Stub;
  /**
   * The offline emulator's frozen "today" (`YYYY-MM-DD`) when the insider
   * service is offline; undefined with the live service. Use it as the end
   * of a date range so offline runs cover the demo data whatever the clock says.
   */
  offlineToday?: string;
}

let noticed = false;
let sharedStub: Stub | undefined;

/**
 * Most serialized search rows the default emulator keeps for pages asked for
 * again (`StubOptions.keepServedRows`; `createStub`'s default is 5,000). It
 * answers in the user's own process, a notebook's kernel included: the
 * shipped notebooks' kernels peaked 17–31 MiB lower with 1,000 than with
 * 5,000 (02, 04 and 05, one run each). A retry of a page still finds its rows.
 */
export const CONNECT_KEPT_ROWS = 1_000;

/**
 * Connects to both services.
 *
 * @example
 * ```ts
 * import { connect } from "./connect.ts";
 * const { catalog, insider, offline } = await connect();
 * console.log(offline); // { catalog: true, insider: true } without keys
 * const page = await catalog.pitches({ limit: 5 }).firstPage();
 * console.log(page.rows.length); // 5
 * ```
 */
export function connect(opts: ConnectOptions = {}): Promise<Connection> {
  return Promise.try(open, opts); // a configuration error is a rejection, never a throw
}

function open(opts: ConnectOptions): Connection {
  const env = readEnvironment(opts.env);
  // the client options connect() passes on as they are (the ones ConnectOptions picks)
  const { env: _env, stub: _stub, quiet: _quiet, fetch: _fetch, instrument: _wrap, ...common } =
    opts;
  // one emulator per connect(): both services share it. Custom emulator
  // options make a private one; without them, one emulator per process.
  let stub: Stub | undefined;
  const emulator = () =>
    stub ??= opts.stub
      ? createStub(opts.stub)
      : (sharedStub ??= createStub({ keepServedRows: CONNECT_KEPT_ROWS }));
  const wrap = (fetch: FetchLike | undefined, service: "catalog" | "insider") =>
    opts.instrument ? opts.instrument(fetch ?? globalThis.fetch, service) : fetch;
  // both services' variables are checked before either client is made
  const configs = {
    catalog: serviceConfig(env, SERVICE_VARS.catalog),
    insider: serviceConfig(env, SERVICE_VARS.insider),
  };
  const pick = (service: "catalog" | "insider") => {
    const config = configs[service];
    const options: ClientOptions = config.live
      ? { apiKey: config.apiKey, baseUrl: config.baseUrl, fetch: wrap(opts.fetch, service) }
      : {
        apiKey: DEMO_KEYS[service],
        baseUrl: `http://signalbook.offline/${service}`,
        // marked, so what the client builds from it is marked as demo data
        fetch: markDemo(wrap(emulator().fetch, service)!),
      };
    return { offline: !config.live, options: { ...options, ...common } };
  };
  const c = pick("catalog");
  const i = pick("insider");
  const offline = { catalog: c.offline, insider: i.offline };
  if ((c.offline || i.offline) && !noticed && !opts.quiet) {
    noticed = true;
    const which = [c.offline && SERVICE_VARS.catalog.key, i.offline && SERVICE_VARS.insider.key]
      .filter(Boolean)
      .join(" and ");
    notice(`signalbook: ${which} not set; using the offline emulator (demo data).`);
  }
  const connection: Connection = {
    catalog: new CatalogClient(c.options),
    insider: new InsiderClient(i.options),
    offline,
    // world.asOf is a day number (days since 1970-01-01)
    offlineToday: i.offline ? dayText(stub!.world.asOf) : undefined,
  };
  // the emulator that answers (made by pick() for an offline service), in this process (a
  // notebook's kernel too: a process of its own held a second Deno runtime and a second copy of
  // the world, more than it kept out of the kernel)
  if (stub) connection.stub = stub;
  return connection;
}
