import autocannon from 'autocannon';
import type { BenchRow } from './types';

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
  next(i: number): PlannedRequest;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  total: number;
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
    const res = await fetch(`${load.baseUrl}${first.path}`, { headers: { authorization: `Bearer ${first.token ?? load.token ?? ''}` } }).catch(() => null);
    await res?.arrayBuffer();
  }
  let i = 0;
  const result = await autocannon({
    url: load.baseUrl,
    connections: load.connections,
    ...(load.amount ? { amount: load.amount, timeout: 120 } : { duration: load.duration ?? 5 }),
    requests: [
      {
        setupRequest: (req) => {
          const n = i++;
          const planned = load.next(n);
          const token = planned.token ?? load.token ?? '';
          return {
            ...req,
            method: planned.method ?? 'GET',
            path: planned.path,
            headers: { authorization: `Bearer ${token}`, ...(planned.body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(planned.body === undefined ? { body: undefined } : { body: JSON.stringify(planned.body) }),
          };
        },
      },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: failedRequests(result),
    total: result.requests.total,
  };
}

/** A load row judged on p99 (and no errors). */
export function p99Row(name: string, f: LoadFigures, p99Ms: number | undefined, note?: string): BenchRow {
  return {
    name,
    requestsPerSecond: f.requestsPerSecond,
    p50Ms: f.p50Ms,
    p99Ms: f.p99Ms,
    errors: f.errors,
    // a window in which nothing was answered is not a pass
    ...(p99Ms === undefined ? {} : { target: `p99 < ${p99Ms} ms, 0 errors`, met: f.total > 0 && f.errors === 0 && f.p99Ms < p99Ms, measured: f.p99Ms, unit: 'ms p99' }),
    note: [`${f.total} requests`, note].filter(Boolean).join('; '),
  };
}

/** Requests that got no good answer: autocannon's `errors` already include its timeouts, so they are not added again. */
export function failedRequests(result: { errors: number; non2xx: number }): number {
  return result.errors + result.non2xx;
}
