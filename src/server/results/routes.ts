import type { FastifyInstance } from 'fastify';

export async function resultRoutes(_fastify: FastifyInstance): Promise<void> {}
