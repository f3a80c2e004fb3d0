import { indiaDate } from '@/domain/sessions';

/** What the fee dialogs need to know about a student; the students API's Student fits it. */
export interface FeeStudent {
  id: string;
  name: string;
  class: string;
  section: string;
  rollNumber: number;
  sessionId: string | null;
  monthlyBusFee: string;
  /** the class's monthly tuition in the student's session, null without a fee structure */
  monthlyFee?: string | null;
  /** the class's yearly (admission) fee */
  admissionFee?: string | null;
}

/** Today in India (the schools' clock), `YYYY-MM-DD`, whatever the computer's time zone. */
export const indiaToday = (): string => indiaDate(new Date());
