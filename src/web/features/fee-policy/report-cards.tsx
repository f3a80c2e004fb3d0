import { useQuery } from '@tanstack/react-query';
import { BadgePercentIcon, FileDownIcon, FileTextIcon, LandmarkIcon, PrinterIcon, SettingsIcon, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CLASSES, SECTIONS } from '@/domain/classes';
import { indiaDate } from '@/domain/sessions';
import { toast } from '@/web/components/toaster';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { downloadFile } from '@/web/lib/download';
import { refusalMessage } from '@/web/lib/form-errors';
import { sessionsQuery } from '@/web/lib/school-data';
import { paths, REGISTER_STATUSES, type RegisterStatus } from './api';
import { texts } from './texts';
import { useCan } from '@/web/app/permissions';

/** Download a file the server makes, telling the user why when it refuses. */
async function fetchFile(path: string, name: string) {
  try {
    await downloadFile(path, name);
  } catch (error) {
    toast.error({ title: texts.downloadFailed, description: refusalMessage(error, texts.downloadFailed) });
  }
}

function useSessionYear() {
  const sessions = useQuery(sessionsQuery());
  return sessions.data?.find((s) => s.isActive)?.sessionName ?? sessions.data?.[0]?.sessionName ?? '';
}

function PolicyCard({ icon: Icon, title, description, testId, children, footer }: { icon: LucideIcon; title: string; description: string; testId: string; children?: ReactNode; footer: ReactNode }) {
  return (
    <Card className="flex flex-col" data-testid={testId}>
      <CardHeader className="flex-row items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-5" />
        </span>
        <div className="grid gap-1">
          <CardTitle className="text-base">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
      </CardHeader>
      {children ? <CardContent className="grid gap-3">{children}</CardContent> : null}
      <CardFooter className="mt-auto flex-wrap gap-2">{footer}</CardFooter>
    </Card>
  );
}

/** Reports → Export to Tally: a date range, the vouchers as Tally XML and the journal as CSV. */
export function TallyExportCard() {
  const today = indiaDate(new Date());
  const [fromDate, setFrom] = useState(today);
  const [toDate, setTo] = useState(today);
  const wrongOrder = fromDate > toDate;
  return (
    <PolicyCard
      icon={LandmarkIcon}
      title={texts.tallyTitle}
      description={texts.tallyDescription}
      testId="report-card-tally"
      footer={
        <>
          <Button disabled={wrongOrder} onClick={() => void fetchFile(paths.tally(fromDate, toDate), `tally-${fromDate}-${toDate}.xml`)}>
            <FileDownIcon />
            {texts.tallyXml}
          </Button>
          <Button variant="outline" disabled={wrongOrder} onClick={() => void fetchFile(paths.journal(fromDate, toDate), `journal-${fromDate}-${toDate}.csv`)}>
            <FileDownIcon />
            {texts.journalCsv}
          </Button>
          <Button variant="ghost" asChild>
            <Link to="/school/settings#tally-ledgers">
              <SettingsIcon />
              {texts.mappingLink}
            </Link>
          </Button>
        </>
      }
    >
      <div className="grid grid-cols-2 gap-2">
        <div className="grid gap-1">
          <Label htmlFor="tally-from">{texts.fromDate}</Label>
          <Input id="tally-from" type="date" value={fromDate} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="tally-to">{texts.toDate}</Label>
          <Input id="tally-to" type="date" value={toDate} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      {wrongOrder ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {texts.dateOrder}
        </p>
      ) : null}
    </PolicyCard>
  );
}

/** Reports → Concession register: who got which concession, how much, approved by whom. */
export function ConcessionRegisterCard() {
  const sessions = useQuery(sessionsQuery());
  const active = useSessionYear();
  const [chosen, setChosen] = useState('');
  const [status, setStatus] = useState<RegisterStatus>('approved');
  const year = chosen || active;
  const file = (ext: 'pdf' | 'csv') => `concession-register-${year}${status === 'approved' ? '' : `-${status}`}.${ext}`;
  return (
    <PolicyCard
      icon={BadgePercentIcon}
      title={texts.concessionRegister}
      description={texts.concessionRegisterDescription}
      testId="report-card-concession-register"
      footer={
        <>
          <Button disabled={!year} onClick={() => void fetchFile(paths.concessionRegister(year, 'pdf', status), file('pdf'))}>
            <PrinterIcon />
            {texts.pdf}
          </Button>
          <Button variant="outline" disabled={!year} onClick={() => void fetchFile(paths.concessionRegister(year, 'csv', status), file('csv'))}>
            <FileDownIcon />
            {texts.csv}
          </Button>
        </>
      }
    >
      <div className="grid grid-cols-2 gap-2">
        <div className="grid gap-1">
          <Label htmlFor="register-session">{texts.registerSession}</Label>
          <NativeSelect id="register-session" value={year} onChange={(e) => setChosen(e.target.value)}>
            {(sessions.data ?? []).map((s) => (
              <option key={s.id} value={s.sessionName}>
                {s.sessionName}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="register-status">{texts.registerShow}</Label>
          <NativeSelect id="register-status" value={status} onChange={(e) => setStatus(e.target.value as RegisterStatus)}>
            {REGISTER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {texts.registerStatuses[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
    </PolicyCard>
  );
}

/** Reports → Outstanding by class (the principal signs it), and a class's session statements in one PDF. */
export function YearEndCard() {
  const year = useSessionYear();
  const [className, setClassName] = useState<string>(CLASSES[0]);
  const [section, setSection] = useState('');
  return (
    <PolicyCard
      icon={FileTextIcon}
      title={texts.outstandingByClass}
      description={texts.outstandingByClassDescription}
      testId="report-card-year-end"
      footer={
        <>
          <Button disabled={!year} onClick={() => void fetchFile(paths.outstandingByClass(year), `outstanding-by-class-${year}.pdf`)}>
            <PrinterIcon />
            {texts.outstandingByClass}
          </Button>
          <Button
            variant="outline"
            disabled={!year}
            onClick={() => void fetchFile(paths.classStatements(className, section || undefined, year), `statements-${className.replace(/\s+/g, '-')}-${year}.pdf`)}
          >
            <FileTextIcon />
            {texts.classStatements}
          </Button>
        </>
      }
    >
      <div className="grid grid-cols-2 gap-2">
        <div className="grid gap-1">
          <Label htmlFor="statements-class">{texts.classLabel}</Label>
          <NativeSelect id="statements-class" value={className} onChange={(e) => setClassName(e.target.value)}>
            {CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="statements-section">{texts.sectionLabel}</Label>
          <NativeSelect id="statements-section" value={section} onChange={(e) => setSection(e.target.value)}>
            <option value="">{texts.allSections}</option>
            {SECTIONS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
    </PolicyCard>
  );
}

/** The fee policy cards of the Reports tab, each for the roles the permission table allows. */
export function PolicyReportCards() {
  const can = useCan();
  return (
    <>
      {can('reports.view') ? <YearEndCard /> : null}
      {can('reports.view') ? <ConcessionRegisterCard /> : null}
      {can('tally.export') ? <TallyExportCard /> : null}
    </>
  );
}
