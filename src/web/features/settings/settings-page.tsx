import { ArrowLeftIcon, ShieldCheckIcon, UserIcon, WalletIcon } from 'lucide-react';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { SETTINGS_CARDS } from '@/web/app/feature-slots';
import { useCan } from '@/web/app/permissions';
import { useSchoolSession } from '@/web/app/session';
import { ThemeToggle } from '@/web/components/theme';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { ChangeEmailCard } from './change-email-card';
import { ChangePasswordCard } from './change-password-card';
import { OnlinePaymentsCard } from './online-payments-card';
import { SchoolInfoCard } from './school-info-card';

/** Account Settings (operations §2 /school/settings): four cards. */
export function SettingsPage() {
  const { user, school } = useSchoolSession();
  // every role keeps its own sign-in details; the school's settings are the Administrator's (ruling 32)
  const admin = useCan()('settings.manage');
  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-10 border-b bg-card/90 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-4 py-2.5">
          <Button variant="ghost" size="sm" asChild className="-ml-2">
            <Link to="/school/dashboard">
              <ArrowLeftIcon />
              <span className="max-[359px]:sr-only">Back to Dashboard</span>
            </Link>
          </Button>
          <div className="flex items-center gap-1">
            <Badge variant="success" className="gap-1">
              <ShieldCheckIcon className="size-3.5" />
              Secure Settings
            </Badge>
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main className="mx-auto grid max-w-5xl gap-5 px-4 py-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Account Settings</h1>
          <p className="text-sm text-muted-foreground">Manage your sign-in details and your school&apos;s information.</p>
        </div>
        <Card>
          <CardHeader className="gap-3 sm:flex-row sm:items-center sm:justify-between">
            <CardTitle level={2} className="flex items-center gap-2">
              <UserIcon className="size-5 text-primary" />
              Account Overview
            </CardTitle>
            <Button variant="outline" size="sm" asChild className={admin ? 'self-start' : 'hidden'}>
              <Link to="/school/settings/billing">
                <WalletIcon />
                Billing &amp; invoices
              </Link>
            </Button>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm sm:grid-cols-2">
              <div className="min-w-0">
                <dt className="text-muted-foreground">Email</dt>
                <dd className="break-all font-medium" data-testid="overview-email">{user.email}</dd>
              </div>
              <div className="min-w-0">
                <dt className="text-muted-foreground">School name</dt>
                <dd className="font-medium" data-testid="overview-school">{school.name || 'Not set'}</dd>
              </div>
            </dl>
          </CardContent>
        </Card>
        <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
          <ChangePasswordCard />
          <ChangeEmailCard currentEmail={user.email} />
        </div>
        {admin ? (
          <>
            <SchoolInfoCard school={school} />
            <Suspense fallback={null}>
              {SETTINGS_CARDS.map((Extra, i) => (
                <Extra key={i} />
              ))}
            </Suspense>
            {/* issue 13: administrators only (ruling 32) */}
            <OnlinePaymentsCard />
          </>
        ) : null}
      </main>
    </div>
  );
}
