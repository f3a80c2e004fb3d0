import { aprilToMarchSession } from '@/domain/sessions';
import type { AcademicSession } from '@/web/lib/school-data';

export interface SessionFormValues {
  sessionName: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
}

/** The day after a date, `YYYY-MM-DD`, in calendar arithmetic (no time zones involved). */
function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

/**
 * The session after the active one (it starts the day after it ends and lasts a year), or the
 * April–March session of today when there is none.
 */
export function suggestedSession(active: AcademicSession | null, today: string): SessionFormValues {
  if (!active) {
    const { name, startDate, endDate } = aprilToMarchSession(today);
    return { sessionName: name, startDate, endDate, isActive: false };
  }
  const startDate = nextDay(active.endDate);
  const startYear = Number(startDate.slice(0, 4));
  // the day before the same date a year on: 2027-04-01 → 2028-03-31
  const endDate = new Date(Date.UTC(startYear + 1, Number(startDate.slice(5, 7)) - 1, Number(startDate.slice(8, 10)) - 1)).toISOString().slice(0, 10);
  return { sessionName: `${startYear}-${startYear + 1}`, startDate, endDate, isActive: false };
}
