import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * What one app process tells the others sharing its PostgreSQL database, so their per-process
 * caches (the session check, decision 0013; school figures, decision 0021) drop what it changed
 * within a second instead of at their time limits (docs/decisions/0043-scale-out.md).
 */
export type BusMessage =
  | { kind: 'session'; id: string }
  | { kind: 'user'; id: string }
  /** plan, trial or activation change of a school: its sessions' access must be judged again */
  | { kind: 'school'; id: string }
  /** a school's data changed: its figures are computed again */
  | { kind: 'data'; schoolId: string }
  /** data changed outside any school's session (payment links, webhooks) */
  | { kind: 'epoch' }
  /** messages may have been missed (the listening connection dropped): forget everything */
  | { kind: 'reset' };

type Handler = (message: BusMessage) => void;

interface Transport {
  send(text: string): void;
  /** true while messages from other processes are arriving */
  readonly listening: boolean;
}

export const NOTIFY_CHANNEL = 'school_ledger_changes';

/**
 * One per process. Without a transport (the embedded database, which only this process can open;
 * API tests) a message concerns this process alone, and its caches already acted on it, so
 * nothing is sent. With PostgreSQL, `listenOnPostgres` adds the LISTEN/NOTIFY transport.
 */
export class NotifyBus {
  private readonly handlers = new Set<Handler>();
  private transport: Transport | null = null;
  /** marks this process's own messages, which come back to it from PostgreSQL */
  readonly origin = randomUUID();

  /** Tells the other processes; this process's own caches have already acted. */
  publish(message: BusMessage): void {
    this.transport?.send(JSON.stringify({ o: this.origin, m: message }));
  }

  /** Called for messages from other processes (and for a reset after a lost connection). */
  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Whether a change made by another process reaches this one at once: with no other process, or
   * while listening. Caches shorten their time limits while this is false.
   */
  get reliable(): boolean {
    return this.transport === null || this.transport.listening;
  }

  /** Other processes can share the database and their changes are arriving now (PostgreSQL, listening). */
  get listening(): boolean {
    return this.transport?.listening === true;
  }

  attach(transport: Transport | null): void {
    this.transport = transport;
  }

  /** A notification's payload; anything not ours and not understood is ignored. */
  receive(text: string): void {
    let parsed: { o?: unknown; m?: BusMessage };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.o === this.origin || !parsed.m || typeof parsed.m.kind !== 'string') return;
    this.deliver(parsed.m);
  }

  deliver(message: BusMessage): void {
    for (const handler of this.handlers) handler(message);
  }
}

export const notifyBus = new NotifyBus();

export interface BusListener {
  close(): Promise<void>;
}

interface ListenOptions {
  log?: { warn(text: string): void };
  /** the first wait before connecting again; doubled up to 30 s */
  retryMs?: number;
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to queries and lose it), NOTIFY
 * on the same one. When the connection drops, every cache of this process is reset and their time
 * limits shorten until it is back; once back, a reset is sent so that processes which missed a
 * message of ours while it was down forget what they hold too.
 */
export async function listenOnPostgres(url: string, bus: NotifyBus = notifyBus, options: ListenOptions = {}): Promise<BusListener> {
  const log = options.log ?? { warn: (text: string) => console.warn(text) };
  const firstRetry = options.retryMs ?? 500;
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let lostSends = false;
  let retry: NodeJS.Timeout | undefined;
  let wait = firstRetry;
  // One statement at a time on the connection: a burst of writes published concurrently, and
  // node-postgres queued them on the one client (its "already executing a query" warning, removed
  // in pg 9). What arrives while a NOTIFY is out goes together in the next statement, in order.
  let queued: string[] = [];
  let sending = false;

  const flush = async () => {
    sending = true;
    while (queued.length > 0) {
      const texts = queued;
      queued = [];
      const to = client;
      if (!to || !listening) {
        lostSends = true;
        continue;
      }
      try {
        // with ordinality: the statement's rows, so its NOTIFYs, in the order they were published
        await to.query('select pg_notify($1, t) from unnest($2::text[]) with ordinality as n(t, k) order by k', [NOTIFY_CHANNEL, texts]);
      } catch {
        lostSends = true;
      }
    }
    sending = false;
  };

  const transport: Transport = {
    get listening() {
      return listening;
    },
    send(text) {
      if (!client || !listening) {
        lostSends = true;
        return;
      }
      queued.push(text);
      if (!sending) void flush();
    },
  };

  const lost = (why: string) => {
    if (closed) return;
    if (listening) log.warn(`Lost the change notifications from other app processes (${why}); caches are kept briefly until they are back.`);
    listening = false;
    lostSends = true;
    const dead = client;
    client = null;
    dead?.removeAllListeners();
    dead?.on('error', () => {});
    void dead?.end().catch(() => {});
    bus.deliver({ kind: 'reset' });
    clearTimeout(retry);
    retry = setTimeout(() => void connect().catch((error: Error) => lost(error.message)), wait);
    retry.unref();
    wait = Math.min(wait * 2, 30_000);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, application_name: 'school-ledger-notify' });
    next.on('error', (error) => lost(error.message));
    next.on('end', () => {
      if (client === next) lost('the connection closed');
    });
    next.on('notification', (n) => {
      if (n.channel === NOTIFY_CHANNEL && n.payload) bus.receive(n.payload);
    });
    await next.connect();
    await next.query(`LISTEN ${NOTIFY_CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    listening = true;
    wait = firstRetry;
    if (lostSends) {
      lostSends = false;
      // what this process changed while it could not tell anyone
      transport.send(JSON.stringify({ o: bus.origin, m: { kind: 'reset' } satisfies BusMessage }));
      bus.deliver({ kind: 'reset' });
    }
  };

  bus.attach(transport);
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      listening = false;
      bus.attach(null);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
