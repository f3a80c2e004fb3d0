import { useQuery } from '@tanstack/react-query';
import { CalendarClockIcon } from 'lucide-react';
import { useState } from 'react';
import { REQUESTED_CHANNELS, reminderSettingsSchema, type ReminderSettings, type RequestedChannel } from '@/domain/reminders';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Checkbox } from '@/web/components/ui/checkbox';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { formatDate } from '@/web/lib/format';
import { settingsQuery, useSaveSchedule, type ScheduleSettings } from './api';
import { texts } from './texts';

/** Settings → Monthly reminders ("on the 5th, remind everyone who owes"). */
export function ReminderScheduleCard() {
  const settings = useQuery(settingsQuery);
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2">
          <CalendarClockIcon className="size-5 text-primary" />
          {texts.scheduleTitle}
        </CardTitle>
        <CardDescription>{texts.scheduleDescription}</CardDescription>
      </CardHeader>
      <CardContent>{settings.data ? <ScheduleForm key={JSON.stringify(settings.data)} saved={settings.data} /> : null}</CardContent>
    </Card>
  );
}

function ScheduleForm({ saved }: { saved: ScheduleSettings }) {
  const [enabled, setEnabled] = useState(saved.enabled);
  const [day, setDay] = useState(String(saved.dayOfMonth));
  const [channel, setChannel] = useState<RequestedChannel>(saved.channel);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveSchedule();
  const notSetUp = saved.channelsAvailable.length === 0;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = reminderSettingsSchema.safeParse({ enabled, dayOfMonth: /^\d+$/.test(day.trim()) ? Number(day) : Number.NaN, channel });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setProblem(null);
    save.mutate(parsed.data satisfies ReminderSettings, {
      onSuccess: () => toast.success({ title: texts.scheduleSaved }),
      onError: (error) => setProblem(error.message),
    });
  };
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      {notSetUp ? (
        <Alert variant="info">
          <AlertDescription>{texts.notSetUp}</AlertDescription>
        </Alert>
      ) : null}
      <label className="flex items-center gap-2 text-sm font-medium">
        <Checkbox checked={enabled} onCheckedChange={(v) => setEnabled(v === true)} id="schedule-enabled" />
        {texts.scheduleEnabled}
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid content-start gap-1.5">
          <Label htmlFor="schedule-day">{texts.scheduleDay}</Label>
          <Input id="schedule-day" inputMode="numeric" value={day} onChange={(e) => setDay(e.target.value)} aria-describedby="schedule-day-hint" />
          <p id="schedule-day-hint" className="text-xs text-muted-foreground">
            {texts.dayOfMonthHint}
          </p>
        </div>
        <div className="grid content-start gap-1.5">
          <Label htmlFor="schedule-channel">{texts.scheduleChannel}</Label>
          <NativeSelect id="schedule-channel" value={channel} onChange={(e) => setChannel(e.target.value as RequestedChannel)}>
            {REQUESTED_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {texts.channelOptions[c]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {problem ? (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      <p className="text-sm text-muted-foreground" data-testid="schedule-status">
        {saved.nextRunDate ? texts.scheduleNext(formatDate(saved.nextRunDate)) : texts.scheduleOff}
        {saved.lastRunAt && saved.lastRunSummary ? (
          <span className="block">{texts.scheduleLast(formatDate(saved.lastRunAt), saved.lastRunSummary.queued, saved.lastRunSummary.skipped)}</span>
        ) : null}
      </p>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {texts.scheduleSave}
        </Button>
      </div>
    </form>
  );
}
