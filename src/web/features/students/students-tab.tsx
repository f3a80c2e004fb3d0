import { PlusIcon, UploadIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/web/components/ui/button';
import type { Student } from './api';
import { AddStudentDialog } from './add-student-dialog';
import { BulkImportDialog } from './bulk-import-dialog';
import { StudentLookup, type LookupSelection } from './student-lookup';

/**
 * The Students tab (operations §2): the student database lookup and the add and import dialogs.
 * The stat cards and the collection progress bar of the reports issue go above the lookup.
 */
export function StudentsTab() {
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [selection, setSelection] = useState<LookupSelection>({ className: '', section: '', studentId: '' });

  const show = (student: Student) => setSelection({ className: student.class, section: student.section, studentId: student.id });

  return (
    <section aria-labelledby="students-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="students-heading" className="text-2xl font-semibold tracking-tight">Students</h2>
          <p className="text-sm text-muted-foreground">Find a student by class, section and roll number, or search by name or admission number.</p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => setImporting(true)}>
            <UploadIcon />
            Bulk Import
          </Button>
          <Button onClick={() => setAdding(true)}>
            <PlusIcon />
            Add Student
          </Button>
        </div>
      </div>
      <StudentLookup selection={selection} onSelectionChange={setSelection} onAddStudent={() => setAdding(true)} onBulkImport={() => setImporting(true)} />
      <AddStudentDialog open={adding} onOpenChange={setAdding} onAdded={show} />
      <BulkImportDialog open={importing} onOpenChange={setImporting} />
    </section>
  );
}
