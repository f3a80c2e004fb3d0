import { ReceiptIndianRupeeIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '@/web/lib/utils';
import { ThemeToggle } from './theme';

const WIDTHS = { narrow: 'max-w-md', medium: 'max-w-3xl', wide: 'max-w-6xl' } as const;

/**
 * The frame of the public pages: brand, theme toggle, the content, policy links.
 * `after` is shown below the content at full width, so a narrow sign-in card can sit above a
 * three-column plan showcase.
 */
export function AuthLayout({
  children,
  wide = false,
  width,
  after,
}: {
  children: ReactNode;
  /** kept for existing callers: the same as width="wide" */
  wide?: boolean;
  width?: keyof typeof WIDTHS;
  after?: ReactNode;
}) {
  const size = width ?? (wide ? 'wide' : 'narrow');
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-blue-50 to-background dark:from-slate-900 dark:to-background">
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-4 py-3">
        <Link to="/" className="flex items-center gap-2 font-semibold">
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <ReceiptIndianRupeeIcon className="size-5" />
          </span>
          <span>School Ledger</span>
        </Link>
        <ThemeToggle />
      </header>
      <main className="w-full flex-1 px-4 pb-10 pt-2">
        <div className={cn('mx-auto w-full', WIDTHS[size])}>{children}</div>
        {after ? <div className="mx-auto w-full max-w-6xl">{after}</div> : null}
      </main>
      <SiteFooter />
    </div>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t py-5 text-center text-xs text-muted-foreground">
      <nav aria-label="Policies" className="mx-auto flex max-w-4xl flex-wrap justify-center gap-x-4 gap-y-1 px-4">
        <Link to="/contact" className="hover:text-foreground">Contact</Link>
        <Link to="/privacy" className="hover:text-foreground">Privacy</Link>
        <Link to="/terms" className="hover:text-foreground">Terms</Link>
        <Link to="/refunds" className="hover:text-foreground">Refunds</Link>
        <Link to="/shipping" className="hover:text-foreground">Shipping</Link>
      </nav>
      <p className="mt-2">© {new Date().getFullYear()} School Ledger · Fees and accounts for Indian schools</p>
    </footer>
  );
}
