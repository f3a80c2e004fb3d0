import type { FastifyRequest } from 'fastify';

/**
 * Approving concessions and fine waivers belongs to the Accountant and the Administrator (issue 16).
 * Until the staff roles land (branch `staff`), every school account is the school's administrator,
 * so `requireSchool` already decides; this hook is where the permission table will be read.
 */
// permission: fee_policy.approve — replace with the staff permission check when roles land
export async function requireApprover(_request: FastifyRequest): Promise<void> {}
