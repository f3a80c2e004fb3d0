import type { InvitableRole } from '../../domain/permissions';
import { client, type TestContext } from '../test/harness';

/** Invites a staff member through the API, follows the mailed link, signs in: a test's clerk or teacher. */
export async function addStaff(ctx: TestContext, owner: { api: ReturnType<typeof client> }, role: InvitableRole, name = `A ${role}`) {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@school.test`;
  const invited = await owner.api.post('/api/staff', { email, name, role });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.statusCode} ${invited.body}`);
  await ctx.flushMail();
  const mail = await ctx.smtp.waitFor(email, /invites you/);
  const token = new URL(mail.links[0]!).searchParams.get('token')!;
  const password = 'Counter-Ledger-77';
  const accepted = await client(ctx.app).post('/api/staff/accept-invite', { token, password });
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.body}`);
  const login = await client(ctx.app).post('/api/auth/login', { email, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const body = login.json() as { token: string; user: { id: string } };
  return { id: body.user.id, email, password, name, token: body.token, inviteToken: token, api: client(ctx.app, body.token) };
}
