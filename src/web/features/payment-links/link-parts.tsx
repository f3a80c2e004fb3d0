import { BanIcon, CopyIcon } from 'lucide-react';
import { useState } from 'react';
import { HEAD_LABELS, monthLabel, type FeeHead } from '@/domain/ledger';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { ConfirmDialog } from '@/web/components/ui/confirm-dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { formatDate, rupees } from '@/web/lib/format';
import { refusalMessage } from '@/web/lib/form-errors';
import { useCancelLink, type LinkRow, type LinkStatus } from './api';
import { LINK_STATUS_LABELS, LINK_TEXTS } from './texts';

const STATUS_VARIANT: Record<LinkStatus, 'success' | 'default' | 'secondary' | 'destructive'> = {
  active: 'default',
  paid: 'success',
  expired: 'secondary',
  cancelled: 'destructive',
};

export function LinkStatusBadge({ status }: { status: LinkStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{LINK_STATUS_LABELS[status]}</Badge>;
}

export const feeLabel = (feeType: string, feeMonth: string | null) => {
  const head = feeType === 'outstanding' ? LINK_TEXTS.outstanding : (HEAD_LABELS[feeType as FeeHead] ?? feeType);
  return feeMonth ? `${head}, ${monthLabel(feeMonth)}` : head;
};

/** The full address a parent opens: the server's url, made absolute for pasting into a message. */
export const absoluteUrl = (url: string) => new URL(url, window.location.origin).toString();

export async function copyLink(url: string) {
  try {
    await navigator.clipboard.writeText(absoluteUrl(url));
    toast.success({ title: LINK_TEXTS.copied, description: LINK_TEXTS.copiedBody });
  } catch {
    toast.error({ title: LINK_TEXTS.copyFailed });
  }
}

/** Links with their status, copy and cancel; `withStudent` adds the student column (the school-wide list). */
export function LinksTable({ links, withStudent = false }: { links: LinkRow[]; withStudent?: boolean }) {
  const cancel = useCancelLink();
  const [confirming, setConfirming] = useState<LinkRow | null>(null);
  return (
    <>
      <div className="overflow-x-auto">
        <Table aria-label="Payment links">
          <TableHeader>
            <TableRow>
              {withStudent ? <TableHead>{LINK_TEXTS.colStudent}</TableHead> : null}
              <TableHead>{LINK_TEXTS.colFee}</TableHead>
              <TableHead className="text-right">{LINK_TEXTS.colAmount}</TableHead>
              <TableHead>{LINK_TEXTS.colStatus}</TableHead>
              <TableHead>{LINK_TEXTS.colValid}</TableHead>
              <TableHead>{LINK_TEXTS.colReceipt}</TableHead>
              <TableHead className="text-right">{LINK_TEXTS.colActions}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {links.map((link) => (
              <TableRow key={link.id} data-testid="link-row">
                {withStudent ? (
                  <TableCell>
                    <span className="font-medium">{link.studentName}</span>
                    <span className="block text-xs text-muted-foreground">
                      {link.className}
                      {link.section ? `-${link.section}` : ''}
                      {link.rollNumber !== null ? ` · Roll ${link.rollNumber}` : ''}
                    </span>
                  </TableCell>
                ) : null}
                <TableCell>
                  {feeLabel(link.feeType, link.feeMonth)}
                  {link.description ? <span className="block text-xs text-muted-foreground">{link.description}</span> : null}
                </TableCell>
                <TableCell className="text-right tabular-nums">{rupees(link.amount)}</TableCell>
                <TableCell>
                  <LinkStatusBadge status={link.status} />
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatDate(link.expiresAt)}</TableCell>
                <TableCell className="whitespace-nowrap font-mono text-xs">{link.receiptNumber ?? '—'}</TableCell>
                <TableCell className="text-right">
                  <div className="flex justify-end gap-1">
                    {link.status === 'active' ? (
                      <>
                        <Button variant="ghost" size="sm" onClick={() => void copyLink(link.url)} aria-label={`${LINK_TEXTS.copy}: ${feeLabel(link.feeType, link.feeMonth)}`}>
                          <CopyIcon />
                          <span className="max-sm:sr-only">{LINK_TEXTS.copy}</span>
                        </Button>
                        <Button variant="ghost" size="sm" className="text-destructive" onClick={() => setConfirming(link)}>
                          <BanIcon />
                          <span className="max-sm:sr-only">{LINK_TEXTS.cancel}</span>
                        </Button>
                      </>
                    ) : null}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        title={LINK_TEXTS.cancelTitle}
        description={confirming ? LINK_TEXTS.cancelBody(`${feeLabel(confirming.feeType, confirming.feeMonth)} (${rupees(confirming.amount)})`) : ''}
        confirmLabel={LINK_TEXTS.cancel}
        destructive
        onConfirm={() => {
          const link = confirming;
          if (!link) return;
          cancel.mutate(link.id, {
            onSuccess: () => toast.success({ title: LINK_TEXTS.cancelled }),
            onError: (error) => toast.error({ title: LINK_TEXTS.cancelFailed, description: refusalMessage(error, LINK_TEXTS.cancelFailed) }),
          });
        }}
      />
    </>
  );
}
