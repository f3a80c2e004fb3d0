import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ListOrderedIcon, SaveIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useCan } from '@/web/app/permissions';
import { toast } from '@/web/components/toaster';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { Spinner } from '@/web/components/ui/spinner';
import { ApiError } from '@/web/lib/request';
import { classResultsQuery, isComplete, resultsApi, resultsKeys, type ClassResults } from './api';
import { MarksGrid } from './marks-grid';
import { saveMarksInChunks, type SaveStage } from './save-marks';
import { SaveProgress } from './save-progress';
import { SelectionBar } from './selection-bar';
import { SubjectsDialog } from './subjects-dialog';
import { toBulkEntries, useMarksDraft } from './use-marks-draft';
import type { ResultsSelection } from './use-selection';

/** Marks Entry (operations §2, §4 Marks): the grid, the change counter, the real-progress save. */
export function MarksEntryTab({ state }: { state: ResultsSelection }) {
  const { selection } = state;
  const queryClient = useQueryClient();
  const manageSubjects = useCan()('results.manage');
  const query = useQuery(classResultsQuery(selection));
  const data = query.data;
  const dataKey = `${selection.academicSession}|${selection.className}|${selection.section}`;
  const draft = useMarksDraft(data, dataKey);
  const [stage, setStage] = useState<SaveStage | null>(null);
  const [saving, setSaving] = useState(false);
  const [subjectFilter, setSubjectFilter] = useState('');
  const [subjectsOpen, setSubjectsOpen] = useState(false);

  const subjects = useMemo(() => data?.subjects ?? [], [data]);
  const visibleSubjects = useMemo(() => (subjectFilter ? subjects.filter((s) => s.id === subjectFilter) : subjects), [subjects, subjectFilter]);
  const changes = draft.changed.length;

  const save = async () => {
    if (!data || saving) return;
    if (draft.invalidCount > 0) {
      toast.error({ title: 'Error', description: `Fix the ${draft.invalidCount === 1 ? 'mark' : `${draft.invalidCount} marks`} shown in red before saving.` });
      return;
    }
    if (changes === 0) {
      toast.info({ title: 'No Changes', description: 'No changes were detected to save.' });
      return;
    }
    const names = new Map(subjects.map((s) => [s.id, s.name]));
    const entries = toBulkEntries(draft.changed, (id) => names.get(id) ?? id, data.academicSession);
    setSaving(true);
    try {
      await saveMarksInChunks({
        entries,
        className: data.class,
        section: data.section,
        save: resultsApi.saveBulk,
        onStage: setStage,
        finalize: async () => {
          // the saved marks become the new baseline (operations §4)
          await queryClient.refetchQueries({ queryKey: resultsKeys.classResults(selection) });
          draft.reset();
          await queryClient.invalidateQueries({ queryKey: resultsKeys.all });
        },
      });
      toast.success({ title: 'Success', description: `Successfully saved ${entries.length} changed entries!`, duration: 3000 });
    } catch (error) {
      const message = error instanceof ApiError || error instanceof Error ? error.message : 'Failed to save results';
      toast.error({ title: 'Error', description: message || 'Failed to save results' });
      // whatever chunks did land are on the server: read them back, keep the typed marks
      await queryClient.invalidateQueries({ queryKey: resultsKeys.classResults(selection) });
      // refused because someone else changed a mark meanwhile: the grid now shows the stored marks
      // for what this teacher did not type, and theirs where both typed the same mark
      const fresh = queryClient.getQueryData<ClassResults>(resultsKeys.classResults(selection));
      if (error instanceof ApiError && error.status === 409 && fresh) draft.rebase(fresh);
    } finally {
      setSaving(false);
      setTimeout(() => setStage(null), 1500);
    }
  };

  return (
    <Card>
      <CardHeader className="gap-3">
        <div>
          <CardTitle level={2}>Marks Entry</CardTitle>
          <CardDescription>Type F1–F6, CA and SA; FA, total and grade follow. Enter moves down a column, Tab across. Paste a column from a spreadsheet into its first cell.</CardDescription>
        </div>
        <SelectionBar state={state} idPrefix="entry" disabled={saving}>
          <div className="grid gap-1.5">
            <Label htmlFor="entry-subject">Show subjects</Label>
            <NativeSelect id="entry-subject" value={subjectFilter} onChange={(e) => setSubjectFilter(e.target.value)} disabled={!data}>
              <option value="">All subjects</option>
              {subjects.map((s) => (
                <option key={s.id} value={s.id}>{s.name}</option>
              ))}
            </NativeSelect>
          </div>
        </SelectionBar>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!isComplete(selection) ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">Select class, section, and session to enter marks</p>
        ) : query.isPending ? (
          <div className="flex justify-center p-8"><Spinner label="Loading students" /></div>
        ) : query.isError ? (
          <Alert variant="destructive"><AlertDescription>{query.error.message || 'Failed to fetch results'}</AlertDescription></Alert>
        ) : data && data.students.length === 0 ? (
          <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">No students found for the selected class and section</p>
        ) : data ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={changes > 0 ? 'warning' : 'secondary'} data-testid="change-counter">
                {changes > 0 ? `${changes} ${changes === 1 ? 'change' : 'changes'} detected` : 'No changes'}
              </Badge>
              {draft.invalidCount > 0 ? (
                <Badge variant="destructive">{draft.invalidCount === 1 ? '1 mark' : `${draft.invalidCount} marks`} out of range</Badge>
              ) : null}
              <span className="text-xs text-muted-foreground">{data.students.length} students · {subjects.length} subjects</span>
              <div className="ms-auto flex flex-wrap gap-2">
                {/* a Teacher enters marks; the subjects of a class are the Administrator's (ruling 32) */}
                {manageSubjects ? (
                  <Button variant="outline" onClick={() => setSubjectsOpen(true)} disabled={saving}>
                    <ListOrderedIcon />
                    Manage Subjects
                  </Button>
                ) : null}
                <Button onClick={save} disabled={saving}>
                  {saving ? <Spinner className="size-4 text-primary-foreground" label="Saving" /> : <SaveIcon />}
                  {saving ? 'Saving...' : changes > 0 ? 'Save Changes' : 'Save All Results'}
                </Button>
              </div>
            </div>
            {stage ? <SaveProgress stage={stage} /> : null}
            {subjects.length === 0 ? (
              <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">This class has no subjects yet. Add them with Manage Subjects.</p>
            ) : (
              <MarksGrid students={data.students} subjects={visibleSubjects} baseline={draft.baseline} edits={draft.edits} onEdits={draft.applyEdits} disabled={saving} />
            )}
          </>
        ) : null}
      </CardContent>
      {selection.className ? <SubjectsDialog className={selection.className} open={subjectsOpen} onOpenChange={setSubjectsOpen} /> : null}
    </Card>
  );
}
