import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SearchIcon, UsersIcon } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { compareClasses } from '@/domain/classes';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { LoadFailedAlert } from '@/web/components/load-failed-alert';
import { classSummaryQuery, rosterQuery, studentQuery, studentsQuery, type Student } from './api';
import { StudentRecord } from './student-record';
import { studentTexts } from './texts';

export interface LookupSelection {
  className: string;
  section: string;
  studentId: string;
}

/** Search shows at most this many matches; a longer list means the search should be narrower. */
const SEARCH_LIMIT = 20;
/**
 * The student database lookup: class (with counts), then section, then roll number in numeric
 * order. The picker reads the chosen class and section's roster (id, name and roll number, decision
 * 0096) and the record reads the picked student alone: a section of 666 students in a 60,000-student
 * school was 503 KB of whole student records before, for a picker that shows two fields.
 */
export function StudentLookup({
  selection,
  onSelectionChange,
  onAddStudent,
  onBulkImport,
}: {
  selection: LookupSelection;
  onSelectionChange: (next: LookupSelection) => void;
  onAddStudent: () => void;
  onBulkImport: () => void;
}) {
  const summary = useQuery(classSummaryQuery());
  const queryClient = useQueryClient();
  const { className, section, studentId } = selection;

  const classes = useMemo(() => {
    const totals = new Map<string, number>();
    for (const row of summary.data ?? []) totals.set(row.class, (totals.get(row.class) ?? 0) + row.count);
    return [...totals.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => compareClasses(a, b));
  }, [summary.data]);

  const sections = useMemo(
    () =>
      (summary.data ?? [])
        .filter((row) => row.class === className && row.count > 0)
        .sort((a, b) => a.section.localeCompare(b.section)),
    [summary.data, className],
  );

  // A class with a single section needs no second choice.
  useEffect(() => {
    if (className && !section && sections.length === 1) onSelectionChange({ className, section: sections[0]!.section, studentId: '' });
  }, [className, section, sections, onSelectionChange]);

  const roster = useQuery({ ...rosterQuery(className, section), enabled: Boolean(className && section) });
  const ordered = useMemo(() => [...(roster.data ?? [])].sort((a, b) => a.rollNumber - b.rollNumber), [roster.data]);
  // a student of the chosen section (one moved away or deleted is no longer picked)
  const picked = ordered.some((s) => s.id === studentId);
  const record = useQuery({ ...studentQuery(studentId), enabled: picked });
  const student = picked ? (record.data ?? null) : null;

  const total = classes.reduce((n, [, count]) => n + count, 0);

  if (summary.isPending) {
    return (
      <Card>
        <CardContent className="flex justify-center py-12 sm:py-12">
          <Spinner className="size-7" label="Loading students" />
        </CardContent>
      </Card>
    );
  }
  if (summary.isError) {
    return (
      <LoadFailedAlert message={`Failed to fetch students: ${summary.error.message}`} onRetry={() => summary.refetch()} />
    );
  }
  if (total === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center sm:py-12">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <UsersIcon className="size-6" />
          </span>
          <p className="text-base font-medium">No students yet</p>
          <p className="max-w-sm text-sm text-muted-foreground">Add your first student by hand, or import a whole class at once from a CSV file.</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="outline" onClick={onBulkImport}>
              Bulk Import
            </Button>
            <Button onClick={onAddStudent}>Add Student</Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Student Database</CardTitle>
          <CardDescription>
            {total} {total === 1 ? 'student' : 'students'} in {classes.length} {classes.length === 1 ? 'class' : 'classes'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <StudentSearch
            onPick={(s) => {
              // the search's answer is the whole record: shown at once, not asked for again
              queryClient.setQueryData(studentQuery(s.id).queryKey, s);
              onSelectionChange({ className: s.class, section: s.section, studentId: s.id });
            }}
          />
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="Class" htmlFor="lookup-class">
              <NativeSelect
                id="lookup-class"
                value={className}
                onChange={(e) => onSelectionChange({ className: e.target.value, section: '', studentId: '' })}
              >
                <option value="">Select class</option>
                {classes.map(([name, count]) => (
                  <option key={name} value={name}>
                    {name} ({count})
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Section" htmlFor="lookup-section">
              <NativeSelect
                id="lookup-section"
                value={section}
                disabled={!className}
                onChange={(e) => onSelectionChange({ className, section: e.target.value, studentId: '' })}
              >
                <option value="">Select section</option>
                {sections.map((row) => (
                  <option key={row.section} value={row.section}>
                    {row.section} ({row.count})
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Roll Number" htmlFor="lookup-roll">
              <NativeSelect
                id="lookup-roll"
                value={picked ? studentId : ''}
                disabled={!className || !section || roster.isPending}
                onChange={(e) => onSelectionChange({ className, section, studentId: e.target.value })}
              >
                <option value="">{className && section && roster.isPending ? 'Loading...' : 'Select roll number'}</option>
                {ordered.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.rollNumber} - {s.name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          {roster.isError ? <p className="text-sm text-destructive">Failed to fetch students: {roster.error.message}</p> : null}
          {picked && record.isError ? (
            <p className="text-sm text-destructive">
              {studentTexts.studentFailed}: {record.error.message}
            </p>
          ) : null}
        </CardContent>
      </Card>
      {picked && record.isPending ? (
        <Card>
          <CardContent className="flex justify-center py-12 sm:py-12">
            <Spinner className="size-7" label={studentTexts.loadingStudent} />
          </CardContent>
        </Card>
      ) : null}
      {student ? (
        <StudentRecord
          key={student.id}
          student={student}
          onSaved={(s) => onSelectionChange({ className: s.class, section: s.section, studentId: s.id })}
          onDeleted={() => onSelectionChange({ className, section, studentId: '' })}
        />
      ) : null}
    </div>
  );
}

/** Name or admission number search across the school (`q=`), for when the class is not known. */
function StudentSearch({ onPick }: { onPick: (student: Student) => void }) {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);
  const results = useQuery({ ...studentsQuery({ q, limit: SEARCH_LIMIT }), enabled: q.length >= 2 });
  const open = q.length >= 2;
  return (
    <div className="relative grid gap-2">
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          type="search"
          aria-label="Search by name or admission number"
          placeholder="Search by name or admission number"
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="pl-9"
        />
      </div>
      {open ? (
        <div className="rounded-md border bg-card">
          {results.isPending ? (
            <p className="px-3 py-2 text-sm text-muted-foreground">Searching...</p>
          ) : results.isError ? (
            <p className="px-3 py-2 text-sm text-destructive">{results.error.message}</p>
          ) : results.data.length === 0 ? (
            <p className="px-3 py-2 text-sm text-muted-foreground">No student matches "{q}".</p>
          ) : (
            <ul aria-label="Search results" className="max-h-64 divide-y overflow-y-auto">
              {results.data.map((s) => (
                <li key={s.id}>
                  <button
                    type="button"
                    className="flex w-full flex-wrap items-baseline justify-between gap-x-3 px-3 py-2 text-left text-sm hover:bg-accent cursor-pointer"
                    onClick={() => {
                      onPick(s);
                      setText('');
                    }}
                  >
                    <span className="font-medium">{s.name}</span>
                    <span className="text-xs text-muted-foreground">
                      {s.class}-{s.section} · Roll {s.rollNumber}
                      {s.admissionNumber ? ` · Adm. ${s.admissionNumber}` : ''}
                    </span>
                  </button>
                </li>
              ))}
              {results.data.length === SEARCH_LIMIT ? (
                <li className="px-3 py-2 text-xs text-muted-foreground">Showing the first {SEARCH_LIMIT} matches. Type more to narrow the search.</li>
              ) : null}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** The value after it has stopped changing for `ms`: one search per pause in typing, not per key. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
