import { useQuery } from '@tanstack/react-query';
import { BusIcon, LayersIcon, PencilIcon, PercentIcon, PlusIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { compareClasses } from '@/domain/classes';
import { FEE_HEAD_LABELS, FEE_HEADS } from '@/domain/fee-structures';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/web/components/ui/card';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { rupees } from '@/web/lib/format';
import { sessionsQuery } from '@/web/lib/school-data';
import { activeSessionQuery, feeStructuresQuery, type FeeStructure } from './api';
import { BulkAdjustDialog } from './bulk-adjust-dialog';
import { FeeStructureDialog } from './fee-structure-dialog';

const ALL_YEARS = '';

/** The Fee Structure page (operations §2): what each class pays, per academic year. */
export function FeeStructureTab() {
  const structures = useQuery(feeStructuresQuery());
  const active = useQuery(activeSessionQuery());
  const [editing, setEditing] = useState<FeeStructure | 'new' | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const [pickedYear, setPickedYear] = useState<string | null>(null);

  const years = useMemo(() => [...new Set((structures.data ?? []).map((s) => s.academicYear))].sort().reverse(), [structures.data]);
  const activeYear = active.data?.sessionName ?? null;
  const sessions = useQuery(sessionsQuery());
  // the session after the running one, if it has been created: where next year's fees go
  const nextYear =
    (sessions.data ?? [])
      .filter((s) => active.data && s.startDate > active.data.startDate)
      .sort((a, b) => a.startDate.localeCompare(b.startDate))[0]?.sessionName ?? null;
  // Show the active session's year when it has structures, else the newest year.
  const year = pickedYear ?? (activeYear && years.includes(activeYear) ? activeYear : (years[0] ?? ALL_YEARS));
  const shown = useMemo(
    () =>
      (structures.data ?? [])
        .filter((s) => year === ALL_YEARS || s.academicYear === year)
        .sort((a, b) => compareClasses(a.className, b.className) || b.academicYear.localeCompare(a.academicYear)),
    [structures.data, year],
  );
  const classCount = new Set(shown.map((s) => s.className)).size;

  return (
    <section aria-labelledby="fee-structure-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="fee-structure-heading" className="text-2xl font-semibold tracking-tight">
            Fee Structure ({classCount} {classCount === 1 ? 'class' : 'classes'})
          </h2>
          <p className="text-sm text-muted-foreground">Monthly tuition and the yearly fees of each class.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setAdjusting(true)} disabled={!structures.data?.length}>
            <PercentIcon />
            Annual Fee Increment
          </Button>
          <Button onClick={() => setEditing('new')}>
            <PlusIcon />
            Add Fee Structure
          </Button>
        </div>
      </div>

      <Alert variant="info">
        <BusIcon />
        <AlertDescription>Bus fees are set per student, not per class: enter them on each student's record.</AlertDescription>
      </Alert>

      {years.length > 1 ? (
        <div className="flex items-center gap-2">
          <Label htmlFor="fee-year">Academic year</Label>
          <NativeSelect id="fee-year" className="w-auto" value={year} onChange={(e) => setPickedYear(e.target.value)}>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
                {y === activeYear ? ' (active)' : ''}
              </option>
            ))}
            <option value={ALL_YEARS}>All years</option>
          </NativeSelect>
        </div>
      ) : null}

      {structures.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-7" />
        </div>
      ) : structures.isError ? (
        <Alert variant="destructive">
          <AlertDescription>Failed to fetch fee structure: {structures.error.message}</AlertDescription>
        </Alert>
      ) : shown.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-12 text-center sm:py-12">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <LayersIcon className="size-6" />
            </span>
            <p className="text-base font-medium">No fee structures yet</p>
            <p className="max-w-sm text-sm text-muted-foreground">Set the monthly tuition and yearly fees of a class before recording its fees.</p>
            <Button onClick={() => setEditing('new')}>
              <PlusIcon />
              Add First Fee Structure
            </Button>
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((s) => (
            <FeeStructureCard key={s.id} structure={s} onEdit={() => setEditing(s)} />
          ))}
        </div>
      )}

      <FeeStructureDialog
        key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
        open={editing !== null}
        structure={editing === 'new' ? null : editing}
        existing={structures.data ?? []}
        defaultYear={activeYear ?? ''}
        onOpenChange={(open) => (open ? undefined : setEditing(null))}
      />
      <BulkAdjustDialog open={adjusting} onOpenChange={setAdjusting} structures={structures.data ?? []} runningYear={activeYear} nextYear={nextYear} />
    </section>
  );
}

function FeeStructureCard({ structure, onEdit }: { structure: FeeStructure; onEdit: () => void }) {
  return (
    <Card role="article" className="flex flex-col" aria-label={`${structure.className} ${structure.academicYear}`}>
      <CardHeader className="flex-row items-start justify-between gap-2 pb-3 sm:pb-3">
        <div className="grid gap-1">
          <CardTitle>{structure.className}</CardTitle>
          <Badge variant="secondary" className="justify-self-start">
            {structure.academicYear}
          </Badge>
        </div>
        <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${structure.className} ${structure.academicYear}`}>
          <PencilIcon />
          Edit
        </Button>
      </CardHeader>
      <CardContent className="flex-1">
        <dl className="grid gap-1.5 text-sm">
          {FEE_HEADS.map((head) => (
            <div key={head} className="flex justify-between gap-3">
              <dt className="text-muted-foreground">{FEE_HEAD_LABELS[head]}</dt>
              <dd className="tabular-nums">{rupees(structure[head])}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
      <CardFooter className="justify-between border-t pt-3 text-sm font-semibold sm:pt-3">
        <span>Total yearly fees</span>
        <span className="tabular-nums">{rupees(structure.totalYearlyFees)}</span>
      </CardFooter>
    </Card>
  );
}
