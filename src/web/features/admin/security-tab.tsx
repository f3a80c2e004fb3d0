import { AuditCard } from './security-audit';
import { LocksCard, SessionsCard } from './security-sessions';
import { SignInsCard } from './security-sign-ins';
import { TwoStepCard } from './two-step-card';

/** The Security tab (ruling 22): two-step sign-in, sessions, locks, sign-in history, audit log. */
export function SecurityTab() {
  return (
    <div className="grid gap-5">
      <TwoStepCard />
      <SessionsCard />
      <LocksCard />
      <SignInsCard />
      <AuditCard />
    </div>
  );
}
