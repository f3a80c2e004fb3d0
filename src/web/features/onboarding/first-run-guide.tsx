import { MonitorSmartphoneIcon, PartyPopperIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSchoolSession } from '@/web/app/session';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription, AlertTitle } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { ONBOARDING_FLAGS, useCompleteOnboarding } from './api';
import { ONBOARDING_TEXTS as T, TOUR_STEPS } from './texts';

const MOBILE_QUERY = '(max-width: 767px)';
/** platform §4: the tour is offered 500 ms after the banner closes; positioning starts after 100 ms */
const TOUR_DELAY_MS = 500;
const POSITION_DELAY_MS = 100;
const HIGHLIGHT = ['ring-2', 'ring-primary', 'ring-offset-2', 'ring-offset-background'];

const flag = (storage: Storage, key: string) => storage.getItem(key) === 'true';

/**
 * The first-run guidance of platform §2 and §4 on the school dashboard: the welcome banner on a
 * first sign-in (and the notice on screens under 768 px), then the five-step tour. Finishing it
 * marks onboarding done on the server; Don't Show Again does too, so it stays away on every device.
 */
export function FirstRunGuide() {
  const { user } = useSchoolSession();
  const [narrow] = useState(() => window.matchMedia(MOBILE_QUERY).matches);
  const firstRun = !user.hasSeenOnboarding && !flag(localStorage, ONBOARDING_FLAGS.seen);
  const [bannerOpen, setBannerOpen] = useState(() => firstRun || (narrow && !flag(sessionStorage, ONBOARDING_FLAGS.mobileDismissed)));
  const [tourOpen, setTourOpen] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const closeBanner = () => {
    setBannerOpen(false);
    if (narrow) sessionStorage.setItem(ONBOARDING_FLAGS.mobileDismissed, 'true');
    if (firstRun && !flag(localStorage, ONBOARDING_FLAGS.skip)) timer.current = window.setTimeout(() => setTourOpen(true), TOUR_DELAY_MS);
  };

  return (
    <>
      {bannerOpen ? (
        <Alert variant="info" data-testid="welcome-banner" className="pr-12">
          {firstRun ? <PartyPopperIcon /> : <MonitorSmartphoneIcon />}
          <AlertTitle>{firstRun ? T.welcomeTitle : T.smallScreenTitle}</AlertTitle>
          <AlertDescription>
            {firstRun ? <p>{T.welcomeBody}</p> : null}
            <p>{T.smallScreenBody}</p>
          </AlertDescription>
          <Button variant="ghost" size="icon" className="absolute right-2 top-2 size-8" onClick={closeBanner} aria-label={T.dismiss}>
            <XIcon />
          </Button>
        </Alert>
      ) : null}
      {tourOpen ? <OnboardingTour onClose={() => setTourOpen(false)} /> : null}
    </>
  );
}

/** The tour card: Back, Next/Finish, close, Don't Show Again, "Step n of m"; it points at each part of the dashboard. */
export function OnboardingTour({ onClose }: { onClose: () => void }) {
  const [index, setIndex] = useState(0);
  const complete = useCompleteOnboarding();
  const step = TOUR_STEPS[index]!;
  const last = index === TOUR_STEPS.length - 1;

  useEffect(() => {
    let marked: Element | null = null;
    const t = window.setTimeout(() => {
      // the visible one: the sidebar on a wide screen (the menu sheet is closed on a narrow one)
      marked = [...document.querySelectorAll(`[data-tour="${step.target}"]`)].find((el) => el.getClientRects().length > 0) ?? null;
      marked?.classList.add(...HIGHLIGHT);
      marked?.scrollIntoView({ block: 'nearest' });
    }, POSITION_DELAY_MS);
    return () => {
      window.clearTimeout(t);
      marked?.classList.remove(...HIGHLIGHT);
    };
  }, [step.target]);

  const finish = () =>
    complete.mutate(undefined, {
      onSuccess: () => {
        toast.success({ title: T.finishedTitle });
        onClose();
      },
      onError: () => toast.error({ title: T.failedTitle, description: T.failedBody }),
    });

  const dontShowAgain = () => {
    localStorage.setItem(ONBOARDING_FLAGS.seen, 'true');
    localStorage.setItem(ONBOARDING_FLAGS.skip, 'true');
    complete.mutate(undefined, { onError: () => toast.error({ title: T.failedTitle, description: T.failedBody }) });
    onClose();
  };

  return (
    <Dialog open modal={false} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent
        data-testid="onboarding-tour"
        aria-label={step.title}
        onInteractOutside={(event) => event.preventDefault()}
        className="top-auto bottom-3 translate-y-0 shadow-xl md:left-auto md:right-6 md:bottom-6 md:max-w-md md:translate-x-0"
      >
        <DialogHeader>
          <p className="text-xs font-medium text-primary">{T.step(index + 1, TOUR_STEPS.length)}</p>
          <DialogTitle>{step.title}</DialogTitle>
          <DialogDescription>{step.body}</DialogDescription>
        </DialogHeader>
        <div className="flex gap-1.5" aria-hidden>
          {TOUR_STEPS.map((s, i) => (
            <span key={s.target} className={`h-1.5 flex-1 rounded-full ${i <= index ? 'bg-primary' : 'bg-muted'}`} />
          ))}
        </div>
        <DialogFooter className="flex-row flex-wrap items-center justify-between gap-2 sm:justify-between">
          <Button variant="link" size="sm" className="px-0 text-muted-foreground" onClick={dontShowAgain}>
            {T.dontShowAgain}
          </Button>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => setIndex(index - 1)} disabled={index === 0}>
              {T.back}
            </Button>
            <Button size="sm" onClick={last ? finish : () => setIndex(index + 1)} disabled={complete.isPending}>
              {last ? T.finish : T.next}
            </Button>
          </div>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
