import { monthLabel } from '@/domain/ledger';
import { formatLongDate, rupees } from '@/web/lib/format';

/** Every text of the Session Management screen in one place (a Hindi screen adds a file like this). */
export const sessionTexts = {
  heading: 'Academic Session Management',
  intro: 'Academic years run April to March by default. Exactly one session is active at a time.',
  howTitle: 'Starting the next session',
  how: [
    'Creating a session moves nobody: prepare next year\'s session and its fee structures whenever you like.',
    'When the year ends, use Start on the new session. It shows who moves up a class (Nursery → LKG → UKG → Class 1 … Class 12), who passes out from Class 12 and what each student carries forward as a previous balance, and asks you to confirm.',
    'A start can be undone until the first receipt is saved after it.',
  ],
  laterNotActive: (running: string) => `Students move into a later session when you start it from the list below, not by making it active while ${running} is running.`,
  promotionCompleted: 'Promotion completed',
  promotionPending: 'Not started yet',
  activated: 'Academic session activated successfully!',
  activateFailed: 'Failed to activate session',
  start: (name: string) => `Start ${name}`,
  startTitle: (name: string) => `Start ${name}?`,
  startLoading: 'Working out who moves where…',
  startFailed: 'Could not start the session',
  startSummary: (from: string, to: string) => `Every active student of ${from} moves into ${to}.`,
  carriedThrough: (key: string) => `Dues of the months up to ${monthLabel(key)} are carried forward as each student's previous balance.`,
  totals: (t: { promoted: number; graduating: number; withBalance: number; carried: string }) => [
    { label: 'Move up a class', value: String(t.promoted) },
    { label: 'Pass out (Class 12)', value: String(t.graduating) },
    { label: 'Carry a balance', value: String(t.withBalance) },
    { label: 'Carried in all', value: rupees(t.carried) },
  ],
  classHeads: ['From', 'To', 'Students', 'Carried'],
  passesOut: 'Passes out',
  everyStudent: (n: number) => `Every student (${n})`,
  studentHeads: ['Student', 'Class', 'Moves to', 'Carries'],
  earlyNotice: (opensOn: string, running: string) =>
    `${running} is still running: its last month begins on ${formatLongDate(opensOn)}. Starting now promotes everyone before the year is over and carries only the dues already due.`,
  earlyConfirm: 'Start early anyway',
  confirm: (name: string) => `Start ${name}`,
  starting: 'Starting…',
  cancel: 'Cancel',
  undo: 'Undo start',
  undoTitle: (name: string) => `Undo the start of ${name}?`,
  undoDescription: 'Every student goes back to the class, section and roll number they had, Class 12 comes back from Passouts, the balances carried are removed, and the earlier session becomes active again.',
  undoConfirm: 'Undo start',
  undoFailed: 'Could not undo the start',
  noStudents: 'No active students to move.',
} as const;
