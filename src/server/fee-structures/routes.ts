import type { FastifyInstance } from 'fastify';

export async function feeStructureRoutes(_fastify: FastifyInstance): Promise<void> {}
