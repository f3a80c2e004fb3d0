import type { FastifyInstance } from 'fastify';

export async function sessionRoutes(_fastify: FastifyInstance): Promise<void> {}
