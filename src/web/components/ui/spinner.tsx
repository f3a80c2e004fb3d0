import { Loader2Icon } from 'lucide-react';
import { cn } from '@/web/lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <Loader2Icon className={cn('size-5 animate-spin text-muted-foreground', className)} />
    </span>
  );
}

export function FullPageSpinner({ text }: { text?: string }) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3">
      <Spinner className="size-8 text-primary" />
      {text ? <p className="text-sm text-muted-foreground">{text}</p> : null}
    </div>
  );
}
