import { useEffect, useState, type ReactNode } from 'react';

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** The longest a deferred part waits for the browser to be idle. */
const IDLE_TIMEOUT_MS = 1_500;

/** Runs `callback` once the browser is idle after the current paint; returns a cancel. */
function whenIdle(callback: () => void): () => void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const handle = w.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
    return () => w.cancelIdleCallback?.(handle);
  }
  const handle = window.setTimeout(callback, 1);
  return () => window.clearTimeout(handle);
}

/**
 * A part of a screen below its main figures (opening balances under Fee Status, a student's
 * policy and payment-link panels): rendered, and its queries started, once the browser is idle
 * after the screen's first paint, so the dues paint first and the work is split into short tasks
 * (decision 0044). Until then it shows `fallback`: nothing, or a light outline of the part's size
 * so the page does not jump.
 */
export function Deferred({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return <>{useIdleAfterPaint() ? children : fallback}</>;
}

/** False on the first render, true once the browser has been idle after it: for a query a screen does not need to paint (`enabled:`). */
export function useIdleAfterPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => setReady(true)), []);
  return ready;
}
