import { memo, useCallback, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import {
  computeMarks,
  emptyMarkTexts,
  FIELD_LABEL,
  formatHalves,
  MARK_FIELDS,
  MARK_MAX,
  parseMark,
  parseMarkTexts,
  type MarkField,
  type MarkTexts,
} from '@/domain/results';
import { cn } from '@/web/lib/utils';
import type { CellEdit } from './use-marks-draft';

/**
 * The marks grid: students down, subjects across, F1–F6, CA and SA typed, FA, total and grade
 * computed as you type. Keyboard: Tab goes across a row; Enter goes down the column (the way a
 * teacher reads marks off a list) and from the last student to the top of the next column;
 * Shift+Enter and the arrow keys go up and down. Pasting a spreadsheet column fills downward
 * (and a block with tabs fills across too).
 */

const FIELDS_PER_SUBJECT = MARK_FIELDS.length;

export interface GridStudent {
  id: string;
  name: string;
  rollNumber: number;
}
export interface GridSubject {
  id: string;
  name: string;
}

interface MarksGridProps {
  students: GridStudent[];
  subjects: GridSubject[];
  baseline: Record<string, Record<string, MarkTexts>>;
  edits: Record<string, Record<string, MarkTexts>>;
  onEdits: (edits: CellEdit[]) => void;
  disabled?: boolean;
}

const cellSelector = (row: number, col: number) => `input[data-row="${row}"][data-col="${col}"]`;

export function MarksGrid({ students, subjects, baseline, edits, onEdits, disabled }: MarksGridProps) {
  const gridRef = useRef<HTMLDivElement>(null);
  const columns = subjects.length * FIELDS_PER_SUBJECT;

  const focusCell = (row: number, col: number) => {
    const input = gridRef.current?.querySelector<HTMLInputElement>(cellSelector(row, col));
    if (input) {
      input.focus();
      input.select();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.tagName !== 'INPUT' || target.dataset.row === undefined) return;
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    const last = students.length - 1;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      if (row < last) focusCell(row + 1, col);
      else if (col < columns - 1) focusCell(0, col + 1);
    } else if ((event.key === 'Enter' && event.shiftKey) || event.key === 'ArrowUp') {
      event.preventDefault();
      if (row > 0) focusCell(row - 1, col);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (row < last) focusCell(row + 1, col);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.tagName !== 'INPUT' || target.dataset.row === undefined) return;
    const text = event.clipboardData.getData('text/plain');
    if (!/[\n\t]/.test(text.trimEnd())) return; // one value: the input's own paste
    event.preventDefault();
    const lines = text.replace(/\r/g, '').replace(/\n+$/, '').split('\n');
    const row0 = Number(target.dataset.row);
    const col0 = Number(target.dataset.col);
    const list: CellEdit[] = [];
    lines.forEach((line, i) => {
      const student = students[row0 + i];
      if (!student) return;
      line.split('\t').forEach((value, j) => {
        const col = col0 + j;
        if (col >= columns) return;
        const subject = subjects[Math.floor(col / FIELDS_PER_SUBJECT)]!;
        list.push({ studentId: student.id, subjectId: subject.id, field: MARK_FIELDS[col % FIELDS_PER_SUBJECT]!, value: value.trim() });
      });
    });
    onEdits(list);
  };

  const onCell = useCallback(
    (studentId: string, subjectId: string, field: MarkField, value: string) => onEdits([{ studentId, subjectId, field, value }]),
    [onEdits],
  );

  return (
    <div ref={gridRef} onKeyDown={onKeyDown} onPaste={onPaste} className="max-h-[70vh] overflow-auto rounded-lg border bg-card" data-testid="marks-grid">
      <table className="border-separate border-spacing-0 text-sm">
        <thead className="sticky top-0 z-20 bg-muted">
          <tr>
            <th rowSpan={2} className="sticky left-0 z-30 w-12 min-w-12 border-b border-r bg-muted px-2 text-left font-medium">Roll</th>
            <th rowSpan={2} className="sticky left-12 z-30 min-w-36 border-b border-r bg-muted px-2 text-left font-medium sm:min-w-44">Student</th>
            {subjects.map((s) => (
              <th key={s.id} colSpan={FIELDS_PER_SUBJECT + 3} className="border-b border-r px-2 py-1.5 text-center font-semibold">
                {s.name}
              </th>
            ))}
          </tr>
          <tr>
            {subjects.map((s) => (
              <SubjectHeads key={s.id} />
            ))}
          </tr>
        </thead>
        <tbody>
          {students.map((student, row) => (
            <MarksRow
              key={student.id}
              row={row}
              student={student}
              subjects={subjects}
              baselineRow={baseline[student.id]}
              editsRow={edits[student.id]}
              onCell={onCell}
              disabled={disabled}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SubjectHeads() {
  const head = (label: string, max: number, computed = false) => (
    <th key={label} className={cn('border-b px-1 py-1 text-center text-xs font-medium', computed ? 'bg-muted text-muted-foreground' : '')}>
      {label}
      <span className="block text-[10px] font-normal text-muted-foreground">/{max}</span>
    </th>
  );
  return (
    <>
      {(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const).map((f) => head(FIELD_LABEL[f], MARK_MAX[f]))}
      {head('FA', 30, true)}
      {head('CA', MARK_MAX.ca)}
      {head('SA', MARK_MAX.sa)}
      {head('Total', 100, true)}
      <th className="border-b border-r bg-muted px-1 py-1 text-center text-xs font-medium text-muted-foreground">Grade</th>
    </>
  );
}

interface RowProps {
  row: number;
  student: GridStudent;
  subjects: GridSubject[];
  baselineRow: Record<string, MarkTexts> | undefined;
  editsRow: Record<string, MarkTexts> | undefined;
  onCell: (studentId: string, subjectId: string, field: MarkField, value: string) => void;
  disabled?: boolean | undefined;
}

const MarksRow = memo(function MarksRow({ row, student, subjects, baselineRow, editsRow, onCell, disabled }: RowProps) {
  return (
    <tr className="group">
      <td className="sticky left-0 z-10 border-b border-r bg-card px-2 py-1 tabular-nums group-hover:bg-muted">{student.rollNumber}</td>
      <td className="sticky left-12 z-10 max-w-44 truncate border-b border-r bg-card px-2 py-1 font-medium group-hover:bg-muted" title={student.name}>
        {student.name}
      </td>
      {subjects.map((subject, s) => {
        const loaded = baselineRow?.[subject.id] ?? emptyMarkTexts();
        const texts = editsRow?.[subject.id] ?? loaded;
        const { marks, errors } = parseMarkTexts(texts);
        const hasErrors = Object.keys(errors).length > 0;
        const computed = computeMarks(marks);
        const anyMark = MARK_FIELDS.some((f) => marks[f] !== null);
        const input = (field: MarkField, i: number) => {
          const value = texts[field];
          const error = errors[field];
          const loadedMark = parseMark(field, loaded[field]);
          const typedMark = parseMark(field, value);
          const changed = value.trim() !== '' && !(loadedMark.ok && typedMark.ok && loadedMark.value === typedMark.value);
          return (
            <td key={field} className="border-b p-0.5">
              <input
                type="text"
                inputMode="decimal"
                autoComplete="off"
                data-row={row}
                data-col={s * FIELDS_PER_SUBJECT + i}
                data-min={0}
                data-max={MARK_MAX[field]}
                aria-label={`${student.name} ${subject.name} ${FIELD_LABEL[field]}`}
                aria-invalid={error ? true : undefined}
                title={error ?? `${FIELD_LABEL[field]}: 0 to ${MARK_MAX[field]}`}
                value={value}
                disabled={disabled}
                onFocus={(e) => e.currentTarget.select()}
                onChange={(e) => onCell(student.id, subject.id, field, e.target.value)}
                className={cn(
                  'h-8 w-11 rounded border border-input/70 bg-background px-1 text-center tabular-nums outline-none transition-colors hover:border-input focus:border-ring focus:ring-2 focus:ring-ring/40 disabled:opacity-60',
                  changed && !error && 'bg-amber-100 dark:bg-amber-500/20',
                  error && 'border-destructive bg-destructive/10 text-destructive',
                )}
              />
            </td>
          );
        };
        return [
          ...(['f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const).map((f, i) => input(f, i)),
          <td key="fa" className="border-b bg-muted/60 px-1.5 text-center tabular-nums text-muted-foreground" aria-label={`${student.name} ${subject.name} FA`}>
            {anyMark ? formatHalves(computed.faHalves) : ''}
          </td>,
          input('ca', 6),
          input('sa', 7),
          <td key="total" className="border-b bg-muted/60 px-1.5 text-center font-semibold tabular-nums" aria-label={`${student.name} ${subject.name} Total`}>
            {anyMark ? (hasErrors ? '—' : formatHalves(computed.totalHalves)) : ''}
          </td>,
          <td key="grade" className="border-b border-r bg-muted/60 px-1.5 text-center font-semibold" aria-label={`${student.name} ${subject.name} Grade`}>
            {anyMark && !hasErrors ? computed.grade : ''}
          </td>,
        ];
      })}
    </tr>
  );
});
