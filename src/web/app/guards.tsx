import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageSpinner } from '@/web/components/ui/spinner';
import { useSession } from './session';

/** Route guard (platform §2): signed out → /login; wrong role → /; a spinner while loading. */
export function RequireRole({ role, children }: { role: 'school_admin' | 'master_admin'; children: ReactNode }) {
  const { status, me } = useSession();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signed-out' || !me) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (me.user.role !== role) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** `/`: each role to its home, anyone else to /login. */
export function HomeRedirect() {
  const { status, me } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (!me) return <Navigate to="/login" replace />;
  return <Navigate to={me.user.role === 'master_admin' ? '/admin/dashboard' : '/school/dashboard'} replace />;
}

/** Sign-in pages send a signed-in user to their home. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status, me } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (me) return <Navigate to={me.user.role === 'master_admin' ? '/admin/dashboard' : '/school/dashboard'} replace />;
  return <>{children}</>;
}
