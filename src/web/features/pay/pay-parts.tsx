import { DownloadIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { monthLabel } from '@/domain/ledger';
import { formatINR } from '@/domain/money';
import { AuthLayout } from '@/web/components/auth-layout';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { formatLongDate } from '@/web/lib/format';
import { cn } from '@/web/lib/utils';
import { linkAmount, receiptPath, type PayLink } from './api';
import { both, feeTypeLabel, PAY_LABELS, type Bilingual } from './texts';

/** The public frame, narrow: a parent's phone is the first screen this is made for. */
export function PayFrame({ children }: { children: ReactNode }) {
  return <AuthLayout width="narrow">{children}</AuthLayout>;
}

/** English first, Hindi under it, smaller: both always shown. */
export function Bi({ text, className, hiClassName }: { text: Bilingual; className?: string; hiClassName?: string }) {
  return (
    <span className={cn('grid', className)}>
      <span>{text.en}</span>
      <span lang="hi" className={cn('text-[0.85em] font-normal text-muted-foreground', hiClassName)}>
        {text.hi}
      </span>
    </span>
  );
}

/** A card for a state of the page: an icon, a title, a message, and what the parent can do. */
export function StateCard({
  icon: Icon,
  tone,
  title,
  children,
  actions,
  label,
}: {
  icon: LucideIcon;
  tone: 'error' | 'warning' | 'success' | 'info';
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  label: string;
}) {
  const toneClass = {
    error: 'bg-destructive/10 text-destructive',
    warning: 'bg-warning/20 text-amber-800 dark:text-warning',
    success: 'bg-success/15 text-success',
    info: 'bg-primary/10 text-primary',
  }[tone];
  return (
    <Card role="region" aria-label={label} className="mt-4">
      <CardContent className="grid justify-items-center gap-3 p-6 pt-6 text-center sm:p-8 sm:pt-8">
        <span className={cn('flex size-14 items-center justify-center rounded-full', toneClass)}>
          <Icon className="size-7" aria-hidden />
        </span>
        <h1 className="text-xl font-semibold">{title}</h1>
        {children ? <div className="grid gap-2 text-sm text-muted-foreground">{children}</div> : null}
        {actions ? <div className="mt-2 grid w-full gap-2">{actions}</div> : null}
      </CardContent>
    </Card>
  );
}

/** What the link is for: school, student, fee, month and the amount, large. */
export function LinkSummary({ link, showValidity = true }: { link: PayLink; showValidity?: boolean }) {
  const amount = linkAmount(link.paymentLink.amount);
  const fee = feeTypeLabel(link.paymentLink.feeType);
  const month = link.paymentLink.feeMonth;
  return (
    <div className="grid gap-4">
      <div className="text-center">
        <p className="text-sm text-muted-foreground">{both(PAY_LABELS.school)}</p>
        <p className="text-lg font-semibold" data-testid="pay-school">
          {link.school.name}
        </p>
      </div>
      <div className="rounded-xl bg-primary/5 p-4 text-center dark:bg-primary/10">
        <p className="text-sm text-muted-foreground">{both(PAY_LABELS.amount)}</p>
        <p className="text-4xl font-bold tabular-nums tracking-tight" data-testid="pay-amount">
          {amount === null ? '—' : formatINR(amount)}
        </p>
        <div className="mt-2 flex flex-wrap justify-center gap-2">
          <Badge variant="secondary">
            {fee.en} / <span lang="hi">{fee.hi}</span>
          </Badge>
          {month ? (
            <Badge variant="outline" data-testid="pay-month">
              {monthLabel(month)}
            </Badge>
          ) : null}
        </div>
      </div>
      <dl className="grid gap-2.5 text-sm">
        <Row label={both(PAY_LABELS.student)} value={link.student.name} testId="pay-student" />
        <Row label={both(PAY_LABELS.class)} value={link.student.class} />
        {link.student.rollNumber !== null ? <Row label={both(PAY_LABELS.rollNumber)} value={String(link.student.rollNumber)} /> : null}
        {link.paymentLink.description ? <Row label={both(PAY_LABELS.description)} value={link.paymentLink.description} /> : null}
        {showValidity ? <Row label={both(PAY_LABELS.validUntil)} value={formatLongDate(link.paymentLink.expiresAt)} testId="pay-valid-until" /> : null}
      </dl>
    </div>
  );
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-b border-dashed pb-2 last:border-0">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The receipt PDF of a paid link: a plain link, so it works without script on any phone. */
export function DownloadReceiptButton({ token }: { token: string }) {
  return (
    <Button asChild size="lg" className="h-auto min-h-12 w-full whitespace-normal py-2 text-center text-base">
      <a href={receiptPath(token)} download>
        <DownloadIcon />
        {both(PAY_LABELS.downloadReceipt)}
      </a>
    </Button>
  );
}
