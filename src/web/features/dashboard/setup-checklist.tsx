import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2Icon, CircleIcon, ListChecksIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import type { SetupStepId } from '@/domain/setup-checklist';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Progress } from '@/web/components/ui/progress';
import { CHECKLIST_KEY, checklistQuery } from '@/web/lib/setup-checklist-api';
import { cn } from '@/web/lib/utils';
import { CHECKLIST_TEXTS as T } from './texts';


/** Where each step is done: a dashboard tab, or the Settings page. */
const WHERE: Record<SetupStepId, string> = {
  schoolDetails: '/school/settings',
  session: '/school/dashboard?tab=academic-sessions',
  feeStructures: '/school/dashboard?tab=fee-structure',
  students: '/school/dashboard?tab=students',
  firstReceipt: '/school/dashboard?tab=monthly-fees',
};

/**
 * The setup checklist on the dashboard until every step is done. The state comes from the server
 * (the school's own records); any successful change anywhere in the app reads it again.
 */
export function SetupChecklist() {
  const queryClient = useQueryClient();
  const checklist = useQuery(checklistQuery());
  const allDone = checklist.data?.allDone ?? true;

  useEffect(() => {
    if (allDone) return;
    return queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success') void queryClient.invalidateQueries({ queryKey: CHECKLIST_KEY });
    });
  }, [allDone, queryClient]);

  const data = checklist.data;
  if (!data || data.allDone) return null;
  const next = data.steps.find((s) => !s.done)?.id;
  return (
    <Card data-testid="setup-checklist">
      <CardHeader className="gap-2 pb-3 sm:pb-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle level={2} className="flex items-center gap-2 text-base">
            <ListChecksIcon className="size-5 text-primary" />
            {T.title}
          </CardTitle>
          <span className="text-sm text-muted-foreground" data-testid="setup-progress">{T.progress(data.completed, data.total)}</span>
        </div>
        <Progress value={(data.completed / data.total) * 100} label={T.progressLabel} />
      </CardHeader>
      <CardContent>
        <ol className="grid gap-1">
          {data.steps.map((step) => {
            const text = T.steps[step.id];
            return (
              <li
                key={step.id}
                data-step={step.id}
                data-done={step.done}
                className={cn('flex flex-wrap items-center gap-x-3 gap-y-1.5 rounded-md px-2 py-2', step.id === next && 'bg-primary/5')}
              >
                {step.done ? (
                  <CheckCircle2Icon className="size-5 shrink-0 text-success" aria-label={T.done} />
                ) : (
                  <CircleIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden />
                )}
                <div className="min-w-48 flex-1">
                  <p className={cn('text-sm font-medium', step.done && 'text-muted-foreground line-through')}>{text.label}</p>
                  {!step.done ? <p className="text-xs text-muted-foreground">{text.hint}</p> : null}
                </div>
                {!step.done ? (
                  <Button asChild size="sm" variant={step.id === next ? 'default' : 'outline'} className="shrink-0 max-sm:ml-8">
                    <Link to={WHERE[step.id]}>{text.action}</Link>
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
