import { useQuery } from '@tanstack/react-query';
import { BellRingIcon, MessageCircleIcon } from 'lucide-react';
import { useState } from 'react';
import { REQUESTED_CHANNELS, type RequestedChannel } from '@/domain/reminders';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { ApiError } from '@/web/lib/request';
import { remindersApi, useLogShare, useSendReminders } from './api';
import { texts } from './texts';

/** Fee Status → Send reminder: a dialog with the words, the channel, Send, and Share on WhatsApp. */
export function SendReminderButton({ studentId, studentName }: { studentId: string; studentName: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <BellRingIcon />
        {texts.sendReminder}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle className="leading-snug">{texts.sendReminderTitle(studentName)}</DialogTitle>
            <DialogDescription>{texts.sendReminderDescription}</DialogDescription>
          </DialogHeader>
          {open ? <ReminderForm studentId={studentId} onDone={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

function ReminderForm({ studentId, onDone }: { studentId: string; onDone: () => void }) {
  // opening the dialog makes (or reuses) the payment link, so the words shown are the words sent
  const preview = useQuery({ queryKey: ['reminder-preview', studentId], queryFn: () => remindersApi.preview(studentId), retry: false, staleTime: 0, gcTime: 0 });
  const [channel, setChannel] = useState<RequestedChannel>('preferred');
  const send = useSendReminders();
  const share = useLogShare();

  if (preview.isPending) {
    return (
      <div className="flex items-center gap-2 py-6 text-sm text-muted-foreground">
        <Spinner className="size-4" /> {texts.preparing}
      </div>
    );
  }
  if (preview.isError) {
    const nothingDue = preview.error instanceof ApiError && preview.error.status === 409;
    return (
      <>
        <Alert variant={nothingDue ? 'info' : 'destructive'}>
          <AlertDescription>{nothingDue && preview.error.message === 'Nothing is due' ? texts.nothingDue : preview.error.message}</AlertDescription>
        </Alert>
        <DialogFooter>
          <Button variant="outline" onClick={onDone}>
            {texts.close}
          </Button>
        </DialogFooter>
      </>
    );
  }
  const p = preview.data;
  const available = p.channels.filter((c) => c.allowed);
  const submit = () =>
    send.mutate(
      { studentIds: [studentId], channel },
      {
        onSuccess: (result) => {
          if (result.queued.length > 0) {
            toast.success({ title: texts.queuedToast(result.queued.length) });
            onDone();
          } else toast.error({ title: texts.notSentToast, description: result.skipped[0]?.reason });
        },
        onError: (error) => toast.error({ title: texts.notSentToast, description: error.message }),
      },
    );
  return (
    <div className="grid min-w-0 gap-4">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{texts.amountDue}</dt>
        <dd className="font-semibold" data-testid="reminder-amount">
          {rupees(p.amount)}
        </dd>
        <dt className="text-muted-foreground">{texts.paymentLink}</dt>
        <dd className="min-w-0 [overflow-wrap:anywhere]">
          <a href={p.linkUrl} target="_blank" rel="noreferrer" className="text-primary underline-offset-4 hover:underline" data-testid="reminder-link">
            {p.linkUrl}
          </a>
        </dd>
      </dl>
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">{texts.messagePreview}</p>
        <p className="rounded-lg border bg-muted/40 p-3 text-sm [overflow-wrap:anywhere]" data-testid="reminder-text">
          {p.text}
        </p>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="reminder-channel">{texts.channelLabel}</Label>
        <NativeSelect id="reminder-channel" value={channel} onChange={(e) => setChannel(e.target.value as RequestedChannel)}>
          {REQUESTED_CHANNELS.map((c) => (
            <option key={c} value={c}>
              {texts.channelOptions[c]}
            </option>
          ))}
        </NativeSelect>
        <ul className="grid gap-0.5 text-xs text-muted-foreground">
          {p.channels.map((c) => (
            <li key={c.channel}>{c.allowed && c.to ? texts.willSendTo(texts.channelNames[c.channel], maskForDisplay(c.to)) : texts.wontSend(texts.channelNames[c.channel], c.reason ?? '')}</li>
          ))}
        </ul>
      </div>
      {p.channels.every((c) => !c.allowed) && p.channels.some((c) => c.reason?.includes('not set up')) ? (
        <Alert variant="info">
          <AlertDescription>{texts.notSetUp}</AlertDescription>
        </Alert>
      ) : null}
      <DialogFooter className="gap-2 sm:justify-between">
        {p.shareUrl ? (
          <Button variant="success" asChild>
            <a href={p.shareUrl} target="_blank" rel="noreferrer" title={texts.shareHint} onClick={() => share.mutate(studentId)} data-testid="share-whatsapp">
              <MessageCircleIcon />
              {texts.shareOnWhatsApp}
            </a>
          </Button>
        ) : (
          <span className="text-xs text-muted-foreground">{p.shareRefusal}</span>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={onDone}>
            {texts.cancel}
          </Button>
          <Button onClick={submit} disabled={send.isPending || available.length === 0}>
            {send.isPending ? <Spinner className="size-4" /> : <BellRingIcon />}
            {send.isPending ? texts.sending : texts.send}
          </Button>
        </div>
      </DialogFooter>
    </div>
  );
}

/** `919876543210` → `+91 XXXXXX3210` (the server masks its log the same way). */
function maskForDisplay(normalised: string): string {
  return `+91 XXXXXX${normalised.slice(-4)}`;
}
