import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from '@/web/components/toaster';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/web/components/ui/dialog';
import { Input, Textarea } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { formatDate } from '@/web/lib/format';
import { ApiError } from '@/web/lib/request';
import { securityApi, totpQuery } from './api';
import { SECURITY_TEXTS as T } from './texts';

const message = (error: unknown) => (error instanceof ApiError ? error.message : 'Network error. Please check your connection and try again.');
const digits = (text: string) => text.replace(/\D/g, '').slice(0, 6);
/** `ABCDEFGH…` → `ABCD EFGH …`: easier to type into a phone. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function CodeInput({ id, value, onChange, error }: { id: string; value: string; onChange: (v: string) => void; error?: string | undefined }) {
  return (
    <Input
      id={id}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="123456"
      aria-invalid={error ? true : undefined}
      value={value}
      onChange={(e) => onChange(digits(e.target.value))}
      className="max-w-40 text-center font-mono text-lg tracking-[0.3em]"
    />
  );
}

/** Two-step sign-in for this master administrator (decision 0035): enrol, confirm, turn off. */
export function TwoStepCard() {
  const status = useQuery(totpQuery());
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [turningOff, setTurningOff] = useState(false);
  const [reason, setReason] = useState('');

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['/api/admin/totp'] });
    await queryClient.invalidateQueries({ queryKey: ['/api/admin/system-health'] });
  };
  const reset = () => {
    setCode('');
    setError(undefined);
    setReason('');
  };

  const start = async () => {
    setBusy(true);
    try {
      reset();
      setEnrolment(await securityApi.enrolTotp());
    } catch (err) {
      toast.error({ title: T.twoStep, description: message(err) });
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await securityApi.confirmTotp(code);
      setEnrolment(null);
      reset();
      toast.success({ title: T.turnedOn });
      await refresh();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await securityApi.disableTotp(code, reason);
      setTurningOff(false);
      reset();
      toast.success({ title: T.turnedOff });
      await refresh();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div>
          <CardTitle level={2} className="flex items-center gap-2">
            <KeyRoundIcon className="size-4 text-muted-foreground" />
            {T.twoStep}
          </CardTitle>
          <CardDescription className="mt-1.5">
            {status.data ? (status.data.enabled ? T.twoStepOn(formatDate(status.data.enabledAt)) : T.twoStepOff) : null}
          </CardDescription>
        </div>
        {status.data ? <Badge variant={status.data.enabled ? 'success' : 'warning'}>{status.data.enabled ? T.on : T.off}</Badge> : null}
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <Spinner />
        ) : status.isError ? (
          <p role="alert" className="text-sm text-destructive">{status.error.message}</p>
        ) : status.data.enabled ? (
          <Button variant="outline" onClick={() => { reset(); setTurningOff(true); }}>
            {T.turnOff}
          </Button>
        ) : enrolment ? (
          <form onSubmit={confirm} className="grid gap-4" noValidate aria-label={T.setUp}>
            <p className="text-sm text-muted-foreground">{T.scan}</p>
            <div className="grid gap-1">
              <span className="text-xs font-medium text-muted-foreground">{T.secret}</span>
              <code data-testid="totp-secret" className="w-fit select-all break-all rounded-md bg-muted px-3 py-2 font-mono text-sm">{grouped(enrolment.secret)}</code>
            </div>
            <a href={enrolment.otpauthUrl} className="w-fit text-sm font-medium text-primary underline-offset-4 hover:underline">
              {T.link}
            </a>
            <Field label={T.confirmCode} htmlFor="totp-confirm" error={error}>
              <CodeInput id="totp-confirm" value={code} onChange={setCode} error={error} />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy || code.length !== 6}>{T.confirm}</Button>
              <Button type="button" variant="ghost" onClick={() => setEnrolment(null)}>{T.cancel}</Button>
            </div>
          </form>
        ) : (
          <Button onClick={start} disabled={busy}>{T.setUp}</Button>
        )}
      </CardContent>
      <Dialog open={turningOff} onOpenChange={setTurningOff}>
        <DialogContent>
          <form onSubmit={turnOff} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>{T.turnOffTitle}</DialogTitle>
              <DialogDescription>{T.turnOffDescription}</DialogDescription>
            </DialogHeader>
            <Field label={T.confirmCode} htmlFor="totp-off-code">
              <CodeInput id="totp-off-code" value={code} onChange={setCode} />
            </Field>
            <Field label={T.reason} htmlFor="totp-off-reason" error={error}>
              <Textarea id="totp-off-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
            </Field>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setTurningOff(false)}>{T.cancel}</Button>
              <Button type="submit" variant="destructive" disabled={busy || code.length !== 6}>{T.turnOff}</Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
