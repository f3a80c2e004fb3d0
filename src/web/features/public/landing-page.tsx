import { ArrowRightIcon, CheckIcon } from 'lucide-react';
import { Link } from 'react-router';
import { SiteFooter } from '@/web/components/auth-layout';
import { PlanShowcase } from '@/web/components/plan-showcase';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import dashboardShot from '@/web/assets/landing/dashboard.jpg';
import feeStatusShot from '@/web/assets/landing/fee-status.jpg';
import monthlyFeesShot from '@/web/assets/landing/monthly-fees.jpg';
import { FACTS } from './policy-facts';
import { SiteHeader } from './site-header';
import { SITE_TEXTS as T } from './site-texts';

const SHOTS: Record<(typeof T.screenshots)[number]['file'], string> = {
  dashboard: dashboardShot,
  'monthly-fees': monthlyFeesShot,
  'fee-status': feeStatusShot,
};

/** The public landing page at / for anyone not signed in (issue 12 item 7). */
export function LandingPage() {
  const [first, ...rest] = T.screenshots;
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <SiteHeader />
      <main className="flex-1">
        <section className="bg-gradient-to-b from-blue-50 to-background dark:from-slate-900 dark:to-background">
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 md:py-16 lg:grid-cols-[1fr_1.15fr]">
            <div>
              <h1 className="text-3xl font-bold tracking-tight sm:text-4xl lg:text-5xl">{T.hero.title}</h1>
              <p className="mt-4 text-base leading-relaxed text-muted-foreground sm:text-lg">{T.hero.body}</p>
              <div className="mt-6 flex flex-wrap gap-3">
                <Button asChild size="lg">
                  <Link to="/register">
                    {T.nav.startTrial}
                    <ArrowRightIcon />
                  </Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to="/pricing">{T.hero.seePricing}</Link>
                </Button>
              </div>
              <p className="mt-3 text-sm text-muted-foreground">{T.hero.trial(FACTS.trialDays)}</p>
            </div>
            <Screenshot file={first.file} caption={first.caption} eager />
          </div>
        </section>

        <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="features-heading" className="text-center text-2xl font-semibold tracking-tight">{T.featuresTitle}</h2>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {T.features.map((f) => (
              <li key={f.title}>
                <Card className="h-full">
                  <CardContent className="grid gap-2 pt-5 sm:pt-6">
                    <h3 className="flex items-start gap-2 font-semibold">
                      <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" />
                      {f.title}
                    </h3>
                    <p className="text-sm leading-relaxed text-muted-foreground">{f.body}</p>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="shots-heading" className="border-y bg-muted/30">
          <div className="mx-auto max-w-6xl px-4 py-12">
            <h2 id="shots-heading" className="text-center text-2xl font-semibold tracking-tight">{T.screenshotsTitle}</h2>
            <div className="mt-8 grid gap-6 md:grid-cols-2">
              {rest.map((s) => (
                <Screenshot key={s.file} file={s.file} caption={s.caption} />
              ))}
            </div>
          </div>
        </section>

        <section className="mx-auto max-w-6xl px-4 pb-4">
          <PlanShowcase />
          <p className="mt-2 text-center text-sm text-muted-foreground">{T.pricingBody}</p>
          <div className="mt-4 flex justify-center">
            <Button asChild variant="outline">
              <Link to="/pricing">{T.fullPricing}</Link>
            </Button>
          </div>
        </section>

        <section className="mx-auto max-w-3xl px-4 py-12 text-center">
          <h2 className="text-2xl font-semibold tracking-tight">{T.closingTitle}</h2>
          <p className="mt-3 text-muted-foreground">{T.closingBody(FACTS.trialDays)}</p>
          <Button asChild size="lg" className="mt-6">
            <Link to="/register">{T.nav.startTrial}</Link>
          </Button>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}

function Screenshot({ file, caption, eager = false }: { file: keyof typeof SHOTS; caption: string; eager?: boolean }) {
  return (
    <figure className="grid gap-2">
      <img
        src={SHOTS[file]}
        alt={T.screenshotAlt(caption)}
        width={1280}
        height={800}
        loading={eager ? 'eager' : 'lazy'}
        className="h-auto w-full rounded-xl border bg-card shadow-lg"
      />
      <figcaption className="text-center text-sm text-muted-foreground">{caption}</figcaption>
    </figure>
  );
}
