import { useQuery } from '@tanstack/react-query';
import { PrinterIcon } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { averageHalves, formatHalves, parseHalves, SUBJECT_MAX } from '@/domain/results';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Spinner } from '@/web/components/ui/spinner';
import { api } from '@/web/lib/request';
import { classResultsQuery, isComplete, type ClassResults } from './api';
import { openPrintWindow } from './print';
import { SelectionBar } from './selection-bar';
import type { ResultsSelection } from './use-selection';

interface Row {
  id: string;
  name: string;
  rollNumber: number;
  totals: Array<number | null>;
  total: number | null;
}

/** Each student's subject totals and grand total, and the class averages (operations §2 Class Results). */
function tabulate(data: ClassResults) {
  const bySubject = new Map<string, number>();
  for (const r of data.results) bySubject.set(`${r.studentId}|${r.subjectId}`, parseHalves(r.totalMarks) ?? 0);
  const rows: Row[] = data.students.map((s) => {
    const totals = data.subjects.map((sub) => bySubject.get(`${s.id}|${sub.id}`) ?? null);
    const entered = totals.filter((t): t is number => t !== null);
    return { id: s.id, name: s.name, rollNumber: s.rollNumber, totals, total: entered.length > 0 ? entered.reduce((a, b) => a + b, 0) : null };
  });
  const averages = data.subjects.map((_, i) => averageHalves(rows.map((r) => r.totals[i]).filter((t): t is number => t !== null)));
  const totalAverage = averageHalves(rows.map((r) => r.total).filter((t): t is number => t !== null));
  return { rows, averages, totalAverage, withMarks: rows.filter((r) => r.total !== null).length };
}

export function ClassResultsTab({ state }: { state: ResultsSelection }) {
  const { selection } = state;
  const query = useQuery(classResultsQuery(selection));
  const school = useQuery({ queryKey: ['/api/auth/me'], queryFn: () => api.get<{ school: { name: string } | null }>('/api/auth/me'), staleTime: 5 * 60_000 });
  const tableRef = useRef<HTMLTableElement>(null);
  const data = query.data;
  const table = useMemo(() => (data ? tabulate(data) : null), [data]);

  const print = () => {
    if (!data || !tableRef.current) return;
    const heading = `<div style="text-align:center;margin-bottom:12px"><h1 style="font-size:20px;font-weight:700;margin:0">${escape(school.data?.school?.name ?? '')}</h1><p style="margin:4px 0 0;font-size:13px">Class Results · ${escape(data.class)} ${escape(data.section)} · Academic Session ${escape(data.academicSession)}</p></div>`;
    const win = openPrintWindow({ title: `Class Results ${data.class} ${data.section} ${data.academicSession}`, html: `<main>${heading}${tableRef.current.outerHTML}</main>` });
    if (!win) toast.error({ title: 'Error', description: 'Allow pop-ups for this site to print.' });
  };

  const maxTotal = (data?.subjects.length ?? 0) * SUBJECT_MAX;
  return (
    <Card>
      <CardHeader className="gap-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle level={2}>Class Results</CardTitle>
            <CardDescription>Each subject out of 100 and the total out of {maxTotal || '100 × subjects'}.</CardDescription>
          </div>
          <Button variant="outline" onClick={print} disabled={!data || data.students.length === 0}>
            <PrinterIcon />
            Print
          </Button>
        </div>
        <SelectionBar state={state} idPrefix="class" />
      </CardHeader>
      <CardContent>
        {!isComplete(selection) ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">Select class, section, and session to view results</p>
        ) : query.isPending ? (
          <div className="flex justify-center p-8"><Spinner label="Loading results" /></div>
        ) : query.isError ? (
          <Alert variant="destructive"><AlertDescription>{query.error.message || 'Failed to fetch results'}</AlertDescription></Alert>
        ) : !data || !table || data.students.length === 0 ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No students found for the selected class and section</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table ref={tableRef} className="w-full border-collapse text-sm" aria-label="Class results" data-testid="class-results">
              <thead className="bg-muted">
                <tr>
                  <th className="border px-2 py-2 text-left font-semibold">S.No</th>
                  <th className="border px-2 py-2 text-left font-semibold">Student Name</th>
                  <th className="border px-2 py-2 text-left font-semibold">Roll No</th>
                  {data.subjects.map((s) => (
                    <th key={s.id} className="border px-2 py-2 text-center font-semibold">
                      {s.name}
                      <span className="block text-xs font-normal text-muted-foreground">(100)</span>
                    </th>
                  ))}
                  <th className="border px-2 py-2 text-center font-semibold">
                    Total
                    <span className="block text-xs font-normal text-muted-foreground">({maxTotal})</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {table.rows.map((r, i) => (
                  <tr key={r.id} className="even:bg-muted/30">
                    <td className="border px-2 py-1.5 tabular-nums">{i + 1}</td>
                    <td className="border px-2 py-1.5 font-medium">{r.name}</td>
                    <td className="border px-2 py-1.5 tabular-nums">{r.rollNumber}</td>
                    {r.totals.map((t, j) => (
                      <td key={data.subjects[j]!.id} className="border px-2 py-1.5 text-center tabular-nums">{t === null ? '—' : formatHalves(t)}</td>
                    ))}
                    <td className="border px-2 py-1.5 text-center font-semibold tabular-nums">{r.total === null ? '—' : formatHalves(r.total)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot className="bg-muted font-semibold">
                <tr>
                  <td className="border px-2 py-2" colSpan={3}>
                    Class Average ({table.withMarks} of {table.rows.length} students with marks)
                  </td>
                  {table.averages.map((a, j) => (
                    <td key={data.subjects[j]!.id} className="border px-2 py-2 text-center tabular-nums">{a || '—'}</td>
                  ))}
                  <td className="border px-2 py-2 text-center tabular-nums">{table.totalAverage || '—'}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
