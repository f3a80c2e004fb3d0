import { ArrowLeftIcon, GraduationCapIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription } from '@/web/components/ui/alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { ClassResultsTab } from './class-results-tab';
import { MarksEntryTab } from './marks-entry-tab';
import { MarksheetTab } from './marksheet-tab';
import { useResultsSelection, type ResultsTab } from './use-selection';

/** Academic Results Management (operations §2 /school/results): marks entry, class results, marksheets. */
export function ResultsPage() {
  const state = useResultsSelection();
  return (
    <div className="min-h-dvh bg-background">
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-[1400px] flex-wrap items-center gap-3 px-4 py-4 sm:px-6">
          <Link to="/school/dashboard" className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline">
            <ArrowLeftIcon className="size-4" />
            Back to Dashboard
          </Link>
          <div className="flex w-full items-center gap-3 sm:w-auto sm:flex-1 sm:justify-center">
            <span className="grid size-9 place-items-center rounded-lg bg-primary/10 text-primary">
              <GraduationCapIcon className="size-5" />
            </span>
            <h1 className="text-xl font-bold tracking-tight sm:text-2xl">Academic Results Management</h1>
          </div>
        </div>
      </header>
      <main className="mx-auto grid max-w-[1400px] gap-4 px-3 py-5 sm:px-6">
        {state.sessionsError ? (
          <Alert variant="destructive"><AlertDescription>Failed to fetch academic sessions</AlertDescription></Alert>
        ) : null}
        <Tabs value={state.tab} onValueChange={(v) => state.setTab(v as ResultsTab)}>
          <TabsList className="w-full sm:w-auto">
            <TabsTrigger value="entry" className="flex-1 sm:flex-none">Marks Entry</TabsTrigger>
            <TabsTrigger value="class" className="flex-1 sm:flex-none">Class Results</TabsTrigger>
            <TabsTrigger value="marksheet" className="flex-1 sm:flex-none">Marksheet</TabsTrigger>
          </TabsList>
          <TabsContent value="entry">
            <MarksEntryTab state={state} />
          </TabsContent>
          <TabsContent value="class">
            <ClassResultsTab state={state} />
          </TabsContent>
          <TabsContent value="marksheet">
            <MarksheetTab state={state} />
          </TabsContent>
        </Tabs>
      </main>
    </div>
  );
}
