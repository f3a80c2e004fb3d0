import { Link } from 'react-router';
import { AuthLayout } from '@/web/components/auth-layout';
import { Button } from '@/web/components/ui/button';

export function NotFoundPage() {
  return (
    <AuthLayout>
      <div className="mt-16 text-center">
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="mt-2 text-2xl font-semibold">404 Page Not Found</h1>
        <p className="mt-2 text-muted-foreground">The page you are looking for does not exist or has moved.</p>
        <Button asChild className="mt-6">
          <Link to="/">Go to Homepage</Link>
        </Button>
      </div>
    </AuthLayout>
  );
}
