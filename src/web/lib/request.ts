import { clearTokens, getToken } from './auth-storage';

/** An error from the API whose message is safe to show: the server's `error` text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
  get fields(): Record<string, string> {
    return (this.body.fields as Record<string, string> | undefined) ?? {};
  }
}

export const TIMEOUT_MS = 30_000;
const BACKOFF_MS = [1_000, 2_000];

export interface RequestOptions {
  /** retry this write too: the server applies it once (an idempotency key is in the body) */
  idempotent?: boolean;
  signal?: AbortSignal;
  /** overrides the bearer token; null sends none (public calls) */
  token?: string | null;
}

let onUnauthorized: () => void = () => {
  clearTokens();
  window.location.assign('/login');
};
/** The app sets what happens when a signed-in request answers 401 (token revoked or expired). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The one request helper (platform §7): JSON in and out, bearer token when present, 30 s per
 * attempt, up to 2 retries after 1 s and 2 s. Client errors (4xx) are never retried, and writes
 * are retried only when the server makes them idempotent, so a lost answer cannot save twice.
 */
export async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const token = options.token === undefined ? getToken() : options.token;
  const retryable = method === 'GET' || method === 'HEAD' || options.idempotent === true;
  const attempts = retryable ? 1 + BACKOFF_MS.length : 1;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await sleep(BACKOFF_MS[attempt - 1]!);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    options.signal?.addEventListener('abort', () => controller.abort());
    try {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await res.text();
      let data: unknown = null;
      try {
        data = text ? JSON.parse(text) : null;
      } catch {
        data = { error: text };
      }
      if (!res.ok) {
        const payload = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
        const message =
          (typeof payload.error === 'string' && payload.error) ||
          (typeof payload.message === 'string' && payload.message) ||
          `${res.status}: ${res.statusText}`;
        const error = new ApiError(res.status, message, payload);
        if (res.status === 401 && token) onUnauthorized();
        if (res.status < 500) throw error;
        lastError = error;
        continue;
      }
      return data as T;
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) throw error;
      if (options.signal?.aborted) throw error;
      lastError =
        error instanceof ApiError
          ? error
          : new ApiError(0, controller.signal.aborted ? 'The server took too long to answer. Please try again.' : 'Network error. Please check your connection and try again.');
    } finally {
      clearTimeout(timer);
    }
  }
  if (attempts > 1 && lastError instanceof ApiError && lastError.status === 0) {
    throw new ApiError(0, `Request failed after ${attempts} attempts: ${lastError.message}`);
  }
  throw lastError;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body ?? {}, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body ?? {}, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};
