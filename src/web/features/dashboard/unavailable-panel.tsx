import { Card, CardContent } from '@/web/components/ui/card';
import type { DashboardTab } from './tabs';

/** The panel of a tab whose screen is not part of this version: friendly, never a broken page. */
export function UnavailablePanel({ tab }: { tab: DashboardTab }) {
  const Icon = tab.icon;
  return (
    <section aria-labelledby="unavailable-heading" className="grid gap-4">
      <h2 id="unavailable-heading" className="text-2xl font-semibold tracking-tight">{tab.label}</h2>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-10 text-center sm:py-12">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Icon className="size-6" />
          </span>
          <p className="max-w-md text-base font-medium">{tab.label} is not available in this version of School Ledger.</p>
          <p className="max-w-md text-sm text-muted-foreground">
            This is where you will {tab.purpose.charAt(0).toLowerCase() + tab.purpose.slice(1)} Until then you can add and import students, set up
            class fee structures and manage academic sessions.
          </p>
        </CardContent>
      </Card>
    </section>
  );
}
