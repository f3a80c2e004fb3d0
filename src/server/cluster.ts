import cluster, { type Worker } from 'node:cluster';

/** What a worker is sent to begin its graceful stop (its own SIGTERM handler does the same). */
export const STOP_MESSAGE = 'school-ledger:stop';

/** How long a crashed worker's replacement waits, so a worker that dies at once does not spin. */
const RESTART_DELAY_MS = 1_000;

interface SuperviseOptions {
  workers: number;
  /** the longest the workers' stop may take before they are killed */
  graceMs: number;
  /** printed once every worker listens */
  onListening: () => void;
}

/**
 * The primary of `WORKERS=N npm start` (decision 0043): starts N app processes that share the
 * port (node:cluster hands each connection to one of them), replaces one that crashes, and on
 * SIGINT/SIGTERM asks every worker to finish its requests and stop (decision 0015), then exits 0.
 * A second signal, or workers that outlast the grace period, end them at once and exit 1.
 *
 * A worker that stops before it ever listened failed to start (a port in use, a bad database):
 * starting it again would fail the same way, so the whole server stops with its error shown.
 */
export function supervise({ workers, graceMs, onListening }: SuperviseOptions): void {
  let stopping = false;
  let exitCode = 0;
  const listening = new Set<number>();
  let announced = false;

  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      listening.add(worker.id);
      if (!announced && listening.size === workers) {
        announced = true;
        onListening();
      }
    });
    worker.once('exit', (code, signal) => onExit(worker, code, signal));
  };

  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));

  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    const started = listening.delete(worker.id);
    if (code !== 0) exitCode = 1;
    if (stopping) {
      if (alive().length === 0) {
        console.log('School Ledger stopped.');
        process.exit(exitCode);
      }
      return;
    }
    if (!started) {
      console.error(`An app process could not start (exit ${signal ?? code}); stopping the others.`);
      stop('SIGTERM', 1);
      return;
    }
    console.error(`App process ${worker.process.pid} stopped unexpectedly (${signal ?? `exit ${code}`}); starting another.`);
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS).unref();
  };

  const stop = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) {
      console.error(`${signal} again: stopping now without waiting.`);
      for (const worker of alive()) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    exitCode = code;
    console.log(`${signal} received: the app processes finish their requests in progress, then stop.`);
    setTimeout(() => {
      console.error(`Could not stop within ${graceMs / 1000} s; stopping now.`);
      for (const worker of alive()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, graceMs).unref();
    const running = alive();
    if (running.length === 0) process.exit(exitCode);
    for (const worker of running) if (worker.isConnected()) worker.send(STOP_MESSAGE);
  };

  // a signal handler is also given the signal's number: not an exit code
  process.on('SIGINT', (signal) => stop(signal));
  process.on('SIGTERM', (signal) => stop(signal));
  for (let i = 0; i < workers; i++) fork();
}
