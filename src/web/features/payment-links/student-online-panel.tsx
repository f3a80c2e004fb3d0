import { useQuery } from '@tanstack/react-query';
import { LinkIcon } from 'lucide-react';
import { useState } from 'react';
import type { FeeStatusPanelProps } from '@/web/app/feature-slots';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { linksQuery } from './api';
import { CreateLinkDialog } from './create-link-dialog';
import { CreditCard } from './credit-card';
import { feeChoices } from './fee-options';
import { LinksTable } from './link-parts';
import { LINK_TEXTS } from './texts';

/** Under a student's Fee Status: their payment links (create, copy, cancel) and their credit. */
export function StudentOnlinePanel(props: FeeStatusPanelProps) {
  const links = useQuery(linksQuery({ studentId: props.student.id }));
  const [creating, setCreating] = useState(false);
  const linkChoices = feeChoices(props, true);
  const creditChoices = feeChoices(props, false);
  return (
    <>
      <CreditCard studentId={props.student.id} choices={creditChoices} />
      <Card role="region" aria-label={LINK_TEXTS.panelTitle} className="min-w-0">
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-3">
          <div className="grid gap-1">
            <CardTitle className="text-base">{LINK_TEXTS.panelTitle}</CardTitle>
            <CardDescription>{LINK_TEXTS.panelDescription}</CardDescription>
          </div>
          <Button onClick={() => setCreating(true)}>
            <LinkIcon />
            {LINK_TEXTS.create}
          </Button>
        </CardHeader>
        <CardContent>
          {links.isPending ? (
            <div className="flex justify-center py-4">
              <Spinner />
            </div>
          ) : links.isError ? (
            <p className="text-sm text-destructive">{LINK_TEXTS.loadFailed}: {links.error.message}</p>
          ) : links.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{LINK_TEXTS.empty}</p>
          ) : (
            <LinksTable links={links.data} />
          )}
        </CardContent>
      </Card>
      {creating ? (
        <CreateLinkDialog open onOpenChange={setCreating} studentId={props.student.id} studentName={props.student.name} choices={linkChoices} />
      ) : null}
    </>
  );
}
