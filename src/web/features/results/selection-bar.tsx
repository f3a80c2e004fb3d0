import type { ReactNode } from 'react';
import { CLASSES, SECTIONS } from '@/domain/classes';
import { NativeSelect } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { cn } from '@/web/lib/utils';
import type { ResultsSelection } from './use-selection';

/** Session, class and section pickers (operations §2); sections A–F in results (§9). */
export function SelectionBar({ state, idPrefix, disabled, children, className }: { state: ResultsSelection; idPrefix: string; disabled?: boolean; children?: ReactNode; className?: string }) {
  const { selection, sessions } = state;
  const sessionNames = sessions.map((s) => s.sessionName);
  if (selection.academicSession && !sessionNames.includes(selection.academicSession)) sessionNames.unshift(selection.academicSession);
  return (
    <div className={cn('grid gap-3 sm:grid-cols-2 lg:grid-cols-4', className)}>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-session`}>Academic Session</Label>
        <NativeSelect id={`${idPrefix}-session`} value={selection.academicSession} disabled={disabled} onChange={(e) => state.setSession(e.target.value)}>
          <option value="">Select session</option>
          {sessionNames.map((name) => (
            <option key={name} value={name}>
              {name}
              {sessions.find((s) => s.sessionName === name)?.isActive ? ' (active)' : ''}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-class`}>Class</Label>
        <NativeSelect id={`${idPrefix}-class`} value={selection.className} disabled={disabled} onChange={(e) => state.setClass(e.target.value)}>
          <option value="">Select class</option>
          {CLASSES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-section`}>Section</Label>
        <NativeSelect id={`${idPrefix}-section`} value={selection.section} disabled={disabled} onChange={(e) => state.setSection(e.target.value)}>
          {SECTIONS.map((s) => (
            <option key={s} value={s}>
              Section {s}
            </option>
          ))}
        </NativeSelect>
      </div>
      {children}
    </div>
  );
}
