import { lazy, Suspense, type ReactNode } from 'react';
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

const LandingPage = lazy(() => import('@/web/features/public/landing-page').then((m) => ({ default: m.LandingPage })));

/** `/`: each role to its home; anyone else sees the public landing page (issue 12 item 7). */
export function HomeRedirect() {
  const { status, me } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (!me) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <LandingPage />
      </Suspense>
    );
  }
  return <Navigate to={me.user.role === 'master_admin' ? '/admin/dashboard' : '/school/dashboard'} replace />;
}

/** Sign-in pages send a signed-in user to their home. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { status, me } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (me) return <Navigate to={me.user.role === 'master_admin' ? '/admin/dashboard' : '/school/dashboard'} replace />;
  return <>{children}</>;
}
