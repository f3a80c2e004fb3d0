import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * A request made on this machine (ruling 30): the socket's peer is loopback and no proxy forwarded
 * it. The socket address is read rather than `request.ip`, so a forged X-Forwarded-For cannot pass,
 * and a forwarding header refuses, so a reverse proxy on the same machine does not make every
 * visitor "local".
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const peer = request.socket?.remoteAddress ?? request.raw.socket?.remoteAddress;
  if (!peer || !LOOPBACK.has(peer)) return false;
  return FORWARDING_HEADERS.every((h) => request.headers[h] === undefined);
}
