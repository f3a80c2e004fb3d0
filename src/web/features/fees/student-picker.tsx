import { Input, NativeSelect } from '@/web/components/ui/input';
import { Field } from '@/web/components/ui/label';
import { cn } from '@/web/lib/utils';
import type { FeeSelectionState } from './use-fee-selection';

/**
 * The selectors of the fee screens (operations §2): academic year, class (with counts), section,
 * roll number in numeric order as "roll - name", and the chosen student's name, read-only.
 */
export function StudentPicker({ state, idPrefix, className }: { state: FeeSelectionState; idPrefix: string; className?: string }) {
  const { selection, sessions, classes, sections, students, picked, loading } = state;
  return (
    <div className={cn('grid gap-3 sm:grid-cols-2 lg:grid-cols-5', className)}>
      <Field label="Academic Year" htmlFor={`${idPrefix}-year`}>
        <NativeSelect id={`${idPrefix}-year`} value={selection.academicYear} disabled={loading.sessions} onChange={(e) => state.setYear(e.target.value)}>
          {loading.sessions ? <option value="">Loading...</option> : null}
          {sessions.map((s) => (
            <option key={s.id} value={s.sessionName}>
              {s.sessionName}
              {s.isActive ? ' (active)' : ''}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Class" htmlFor={`${idPrefix}-class`}>
        <NativeSelect id={`${idPrefix}-class`} value={selection.className} onChange={(e) => state.setClass(e.target.value)}>
          <option value="">{loading.classes ? 'Loading...' : 'Select class'}</option>
          {classes.map(([name, count]) => (
            <option key={name} value={name}>
              {name} ({count})
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Section" htmlFor={`${idPrefix}-section`}>
        <NativeSelect id={`${idPrefix}-section`} value={selection.section} disabled={!selection.className} onChange={(e) => state.setSection(e.target.value)}>
          <option value="">Select section</option>
          {sections.map((row) => (
            <option key={row.section} value={row.section}>
              {row.section} ({row.count})
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Roll Number" htmlFor={`${idPrefix}-roll`}>
        <NativeSelect
          id={`${idPrefix}-roll`}
          value={picked ? picked.id : ''}
          disabled={!selection.className || !selection.section || loading.roster}
          onChange={(e) => state.setStudent(e.target.value)}
        >
          <option value="">{loading.roster ? 'Loading...' : 'Select roll number'}</option>
          {students.map((s) => (
            <option key={s.id} value={s.id}>
              {s.rollNumber} - {s.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Student Name" htmlFor={`${idPrefix}-name`}>
        <Input id={`${idPrefix}-name`} readOnly tabIndex={-1} value={picked?.name ?? ''} placeholder="Select a roll number" />
      </Field>
    </div>
  );
}
