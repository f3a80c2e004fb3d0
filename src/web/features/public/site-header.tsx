import { ReceiptIndianRupeeIcon } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { ThemeToggle } from '@/web/components/theme';
import { Button } from '@/web/components/ui/button';
import { cn } from '@/web/lib/utils';
import { SITE_TEXTS as T } from './site-texts';

const navClass = ({ isActive }: { isActive: boolean }) => cn('text-sm font-medium text-muted-foreground hover:text-foreground', isActive && 'text-foreground');

/** The header of the landing and pricing pages: brand, Pricing, Contact, Sign in, Start free trial. */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4">
        <Link to="/" className="mr-auto flex items-center gap-2 font-semibold">
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <ReceiptIndianRupeeIcon className="size-5" />
          </span>
          <span className="max-sm:sr-only">School Ledger</span>
        </Link>
        <nav aria-label="Site" className="hidden items-center gap-5 sm:flex">
          <NavLink to="/pricing" className={navClass}>{T.nav.pricing}</NavLink>
          <NavLink to="/contact" className={navClass}>{T.nav.contact}</NavLink>
          <NavLink to="/login" className={navClass}>{T.nav.signIn}</NavLink>
        </nav>
        <Button asChild size="sm" variant="outline" className="sm:hidden">
          <Link to="/login">{T.nav.signIn}</Link>
        </Button>
        <Button asChild size="sm">
          <Link to="/register">{T.nav.startTrial}</Link>
        </Button>
        <ThemeToggle />
      </div>
    </header>
  );
}
