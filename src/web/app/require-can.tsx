import type { ReactNode } from 'react';
import { NoAccess } from '@/web/components/no-access';
import { useCan, type Permission } from './permissions';

/** A route a role cannot open says so (ruling 32), rather than failing on the server's 403s. */
export function RequireCan({ capability, children }: { capability: Permission; children: ReactNode }) {
  const can = useCan();
  return can(capability) ? <>{children}</> : <NoAccess />;
}
