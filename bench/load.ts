import http from 'node:http';
import autocannon from 'autocannon';
import type { BenchRow } from './types';

/**
 * What every request of the bench's loads says of itself as a clerk's browser would: it takes a
 * compressed answer (Chrome's list), so the server's compression is in every figure (decision 0065).
 */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' } as const;

/** One request of a varied load: each connection asks for the next one when it is free. */
export interface PlannedRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** another school's bearer token for this request (a mixed load over several schools) */
  token?: string;
}

export interface VariedLoad {
  name: string;
  baseUrl: string;
  /** the bearer token of every request that names none */
  token?: string;
  connections: number;
  /** seconds, or a fixed number of requests */
  duration?: number;
  amount?: number;
  /**
   * The same plan untimed first, so the window measures a server whose code for the route V8 has
   * compiled, as it is all day, not its first seconds after a start (decision 0098): seconds for a
   * load of a duration; for a load of an amount, that many of its requests, taken from the amount.
   */
  warmup?: number;
  next(i: number): PlannedRequest;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  total: number;
  /** the untimed warm-up's own figures, when the load had one */
  warmup?: LoadFigures & { seconds?: number };
}

/**
 * autocannon over a list of different requests (another student each time, so nothing is a cache
 * hit or a replay). Runs on this thread: setupRequest is a function, which autocannon's workers cannot take.
 */
export async function variedLoad(load: VariedLoad): Promise<LoadFigures> {
  // one request first, answered after whatever the previous load left queued in the server, so a
  // window does not start behind another scenario's backlog (reads only: a write would be a replay)
  const first = load.next(0);
  if ((first.method ?? 'GET') === 'GET') {
    const res = await fetch(`${load.baseUrl}${first.path}`, { headers: { ...BROWSER_HEADERS, authorization: `Bearer ${first.token ?? load.token ?? ''}` } }).catch(() => null);
    await res?.arrayBuffer();
  }
  // one index across the warm-up and the window: the window goes on with the plan's next requests
  let i = 0;
  const setupRequest = (req: autocannon.Request) => {
    const planned = load.next(i++);
    const token = planned.token ?? load.token ?? '';
    return {
      ...req,
      method: planned.method ?? 'GET',
      path: planned.path,
      headers: { ...BROWSER_HEADERS, authorization: `Bearer ${token}`, ...(planned.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(planned.body === undefined ? { body: undefined } : { body: JSON.stringify(planned.body) }),
    };
  };
  const cannon = async (size: { amount: number } | { duration: number }): Promise<LoadFigures> => {
    const result = await autocannon({
      url: load.baseUrl,
      connections: load.connections,
      ...('amount' in size ? { amount: size.amount, timeout: 120 } : size),
      requests: [{ setupRequest }],
    });
    return {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: failedRequests(result),
      total: result.requests.total,
    };
  };
  const warmup = load.warmup ?? 0;
  if (load.amount) {
    const untimed = warmup > 0 && warmup < load.amount ? warmup : 0;
    const warm = untimed > 0 ? await cannon({ amount: untimed }) : undefined;
    return { ...(await cannon({ amount: load.amount - untimed })), ...(warm ? { warmup: warm } : {}) };
  }
  const warm = warmup > 0 ? { ...(await cannon({ duration: warmup })), seconds: warmup } : undefined;
  return { ...(await cannon({ duration: load.duration ?? 5 })), ...(warm ? { warmup: warm } : {}) };
}

/** A request with no answer within this long is an error, as autocannon's default timeout counts it. */
const TIMEOUT_MS = 10_000;

/**
 * A varied load on connections that are open before it starts, as the browsers of clerks at work
 * keep theirs. `openLoad` opens every connection with a request of its own (all at once); `run`
 * then has each connection ask for the next planned request as soon as its last is answered, for
 * `duration` seconds. Several loads opened first and run together start at one moment.
 *
 * autocannon opens its connections when its window starts, and a server already busy with other
 * loads accepts them slowly: Node 20's libuv accepts one connection per turn of the event loop, and
 * a turn of the loaded app took some 50 ms here, so the last of the mixed load's 200 connections made
 * its first request ten seconds into its window and timed out (decision 0060).
 */
export async function openLoad(load: VariedLoad): Promise<{ run(): Promise<LoadFigures> }> {
  const base = new URL(load.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: load.connections, maxFreeSockets: load.connections });
  /** the answer's status, or 0 when none came (a network error or the timeout) */
  const send = (planned: PlannedRequest): Promise<number> =>
    new Promise((resolve) => {
      const body = planned.body === undefined ? undefined : JSON.stringify(planned.body);
      const token = planned.token ?? load.token;
      const req = http.request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          method: planned.method ?? 'GET',
          path: planned.path,
          headers: {
            ...BROWSER_HEADERS,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(0));
          res.resume();
        },
      );
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timed out')));
      req.on('error', () => resolve(0));
      req.end(body);
    });
  try {
    const opened = await Promise.all(Array.from({ length: load.connections }, () => send({ path: '/api/health' })));
    if (opened.some((status) => status !== 200)) throw new Error(`${load.name}: the server did not answer every connection's first request`);
  } catch (error) {
    agent.destroy();
    throw error;
  }
  return {
    async run() {
      try {
        /** answered requests' times; a request with no answer is an error with no time, as autocannon counts it */
        const latencies: number[] = [];
        let errors = 0;
        let i = 0;
        const started = performance.now();
        const end = started + (load.duration ?? 5) * 1000;
        const clerk = async () => {
          while (performance.now() < end) {
            const t0 = performance.now();
            const status = await send(load.next(i++));
            if (status > 0) latencies.push(performance.now() - t0);
            if (status < 200 || status >= 300) errors += 1;
          }
        };
        await Promise.all(Array.from({ length: load.connections }, clerk));
        latencies.sort((x, y) => x - y);
        const seconds = (performance.now() - started) / 1000;
        return { requestsPerSecond: Math.round(latencies.length / seconds), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), errors, total: latencies.length };
      } finally {
        agent.destroy();
      }
    },
  };
}

/** The q-quantile of latencies sorted ascending, rounded to `digits` decimals; 0 when there are none. */
export function percentile(sorted: number[], q: number, digits = 0): number {
  if (sorted.length === 0) return 0;
  const scale = 10 ** digits;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * scale) / scale;
}

/** A load row judged on p99 (and no errors). */
export function p99Row(name: string, f: LoadFigures, p99Ms: number | undefined, note?: string): BenchRow {
  const errors = allErrors(f);
  return {
    name,
    requestsPerSecond: f.requestsPerSecond,
    p50Ms: f.p50Ms,
    p99Ms: f.p99Ms,
    errors,
    // a window in which nothing was answered is not a pass
    ...(p99Ms === undefined ? {} : { target: `p99 < ${p99Ms} ms, 0 errors`, met: f.total > 0 && errors === 0 && f.p99Ms < p99Ms, measured: f.p99Ms, unit: 'ms p99' }),
    note: [`${f.total} requests`, warmupNote(f), note].filter(Boolean).join('; '),
  };
}

/** A load's failed requests, its warm-up's included: an error is one whether it was timed or not. */
export const allErrors = (f: LoadFigures): number => f.errors + (f.warmup?.errors ?? 0);

/** What a row's window followed, with the warm-up's own figures: nothing of the load is hidden. */
function warmupNote(f: LoadFigures): string | undefined {
  const w = f.warmup;
  if (!w) return undefined;
  const what = w.seconds === undefined ? `${w.total} requests` : `${w.seconds} s (${w.total} requests)`;
  return `after an untimed warm-up of ${what}: p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms, errors ${w.errors}`;
}

/** Requests that got no good answer: autocannon's `errors` already include its timeouts, so they are not added again. */
export function failedRequests(result: { errors: number; non2xx: number }): number {
  return result.errors + result.non2xx;
}
