import { useQuery } from '@tanstack/react-query';
import { UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { refusalMessage } from '@/web/lib/form-errors';
import { LINK_STATUSES, linksQuery, type LinkStatus } from './api';
import { BulkLinksDialog } from './bulk-links-dialog';
import { LinksTable } from './link-parts';
import { OnlineDay } from './online-day';
import { LINK_STATUS_LABELS, LINK_TEXTS, ONLINE_TEXTS, BULK_TEXTS } from './texts';
import { UpiConfirmations, UpiPendingCount } from './upi-confirmations';

/** The Online Payments tab: links (with the bulk action), UPI payments to confirm, and the day report. */
export function OnlinePaymentsTab({ initial = 'links' }: { initial?: 'links' | 'upi' | 'day' }) {
  return (
    <section aria-labelledby="online-heading" className="grid min-w-0 gap-4">
      <div>
        <h2 id="online-heading" className="text-2xl font-semibold tracking-tight">
          {ONLINE_TEXTS.tabTitle}
        </h2>
        <p className="text-sm text-muted-foreground">{ONLINE_TEXTS.tabDescription}</p>
      </div>
      <Tabs defaultValue={initial} className="min-w-0">
        <TabsList className="w-full justify-start overflow-x-auto sm:w-auto">
          <TabsTrigger value="links">{ONLINE_TEXTS.tabLinks}</TabsTrigger>
          <TabsTrigger value="upi" className="gap-1.5">
            {ONLINE_TEXTS.tabUpi}
            <UpiPendingCount />
          </TabsTrigger>
          <TabsTrigger value="day">{ONLINE_TEXTS.tabDay}</TabsTrigger>
        </TabsList>
        <Card className="mt-3">
          <CardContent className="pt-5 sm:pt-6">
            <TabsContent value="links">
              <LinksList />
            </TabsContent>
            <TabsContent value="upi">
              <UpiConfirmations />
            </TabsContent>
            <TabsContent value="day">
              <OnlineDay />
            </TabsContent>
          </CardContent>
        </Card>
      </Tabs>
    </section>
  );
}

function LinksList() {
  const [status, setStatus] = useState<LinkStatus | ''>('active');
  const [bulkOpen, setBulkOpen] = useState(false);
  const links = useQuery(linksQuery({ status: status || undefined }));
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Field label={ONLINE_TEXTS.linksFilter} htmlFor="linkStatus">
          <NativeSelect id="linkStatus" value={status} onChange={(e) => setStatus(e.target.value as LinkStatus | '')} className="w-40">
            <option value="">{ONLINE_TEXTS.allStatuses}</option>
            {LINK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {LINK_STATUS_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button onClick={() => setBulkOpen(true)}>
          <UsersIcon />
          {BULK_TEXTS.open}
        </Button>
      </div>
      {links.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : links.isError ? (
        <LoadFailedAlert message={refusalMessage(links.error, LINK_TEXTS.loadFailed)} onRetry={() => links.refetch()} />
      ) : links.data.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">{ONLINE_TEXTS.linksEmpty}</p>
      ) : (
        <LinksTable links={links.data} withStudent />
      )}
      {bulkOpen ? <BulkLinksDialog open onOpenChange={setBulkOpen} /> : null}
    </div>
  );
}
