import { ShieldAlertIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSession } from '@/web/app/session';
import { Card, CardContent } from '@/web/components/ui/card';

/**
 * Monthly Fee Management and Student Fee Status are for a school's own administrator (operations
 * §2, §6): a master administrator, or nobody, sees why instead of the screen.
 */
export function SchoolAdminOnly({ children }: { children: ReactNode }) {
  const { me } = useSession();
  if (me?.user.role === 'school_admin' && me.user.schoolId) return <>{children}</>;
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center sm:py-12">
        <span className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <ShieldAlertIcon className="size-6" />
        </span>
        <p className="text-base font-medium">School Admin Access Required</p>
        <p className="max-w-md text-sm text-muted-foreground">
          This screen needs a school administrator account. Sign in with your school's account to record and review student fees.
        </p>
      </CardContent>
    </Card>
  );
}
