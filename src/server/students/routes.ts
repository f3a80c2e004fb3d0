import type { FastifyInstance } from 'fastify';

export async function studentRoutes(_fastify: FastifyInstance): Promise<void> {}
