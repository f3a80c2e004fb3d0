import { ArrowLeftIcon, ShieldOffIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/web/components/ui/button';

const TEXTS = {
  title: "You don't have access",
  body: 'Your role does not include this screen. Ask your school administrator if you need it.',
  back: 'Back to Dashboard',
} as const;

/** What a role sees at a screen its role does not include (ruling 32), instead of a broken page. */
export function NoAccess({ back = true }: { back?: boolean }) {
  return (
    <div className="flex min-h-[50dvh] items-center justify-center px-4 py-10">
      <div className="grid max-w-md justify-items-center gap-3 text-center" role="alert">
        <ShieldOffIcon className="size-12 text-muted-foreground" aria-hidden />
        <h1 className="text-xl font-semibold">{TEXTS.title}</h1>
        <p className="text-sm text-muted-foreground">{TEXTS.body}</p>
        {back ? (
          <Button asChild variant="outline">
            <Link to="/school/dashboard">
              <ArrowLeftIcon />
              {TEXTS.back}
            </Link>
          </Button>
        ) : null}
      </div>
    </div>
  );
}
