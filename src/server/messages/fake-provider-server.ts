import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

type Reply = { status: number; body: unknown } | 'hang';

/**
 * A local stand-in for a messaging provider's HTTP API (no network in tests): records every
 * request and answers from a script (`answer`), by default 200 with `okBody`. `hang` never answers,
 * to test the sender's time limit.
 */
export async function startFakeProvider(okBody: (n: number) => unknown) {
  const requests: ReceivedRequest[] = [];
  const script: Reply[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const reply = script.shift() ?? { status: 200, body: okBody(requests.length) };
      if (reply === 'hang') {
        open.add(res);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** the next answers, in order; after them, 200 again */
    answer(...replies: Reply[]) {
      script.push(...replies);
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
