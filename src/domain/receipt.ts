import { shortMonthName } from './dates';
import { MONTH_KEY_PATTERN } from './ledger';
import { parseRupees, toRupeeString, type Paise } from './money';

/**
 * The printed receipt a parent keeps (issue "The school year as a school lives it", item 9): its
 * words and how its lines read. The server's PDF and the browser's print page both build the
 * receipt from here, so the two never disagree.
 */

export const RECEIPT_TEXTS = {
  title: 'Fee Receipt',
  officeCopy: 'Office copy',
  parentCopy: 'Parent copy',
  cutHere: 'Cut here',
  phone: 'Phone',
  schoolCode: 'School Code',
  receiptNo: 'Receipt No.',
  date: 'Date',
  student: 'Student',
  fatherName: "Father's Name",
  admissionNo: 'Admission No.',
  classSection: 'Class / Section',
  rollNo: 'Roll No.',
  academicYear: 'Academic Year',
  fee: 'Fee',
  period: 'Period',
  amount: 'Amount',
  total: 'Total',
  amountInWords: 'Amount in words',
  paymentMode: 'Payment Mode',
  receivedBy: 'Received by',
  signature: 'Authorised Signature',
  computerGenerated: 'This is a computer-generated receipt. Please keep it for your records.',
  cancelled: 'CANCELLED',
  notRecorded: '—',
  previousBalance: (academicYear: string) => `Previous Balance (${academicYear})`,
  balanceDue: (date: string) => `Balance due as on ${date}`,
  /** ruling 27: online money beyond the dues, kept for the student */
  creditKept: "Also received and kept as the student's credit",
  cancelledBecause: (reason: string) => `Cancelled: ${reason}`,
} as const;

/** The receipt line fields grouping needs (the wire form: amounts are rupee strings). */
export interface ReceiptLineInput {
  head: string;
  headLabel: string;
  period: string | null;
  amount: string;
  academicYear: string;
}

export interface ReceiptLineGroup {
  /** "Tuition Fee", "Previous Balance (2024-2025)" */
  label: string;
  /** "Apr–Jun 2026", "Dec 2025–Feb 2026", "Apr 2026", or the academic year for heads without months */
  period: string;
  /** rupees, two places */
  amount: string;
  /** how many receipt lines the group stands for */
  lines: number;
}

const monthIndex = (key: string) => {
  const m = MONTH_KEY_PATTERN.exec(key);
  return m ? Number(m[1]) * 12 + Number(m[2]) - 1 : null;
};

const shortMonth = (index: number) => ({ month: shortMonthName(index), year: Math.floor(index / 12) });

/** "Apr–Jun 2026", "Dec 2025–Feb 2026", "Apr 2026": months a group covers, first to last. */
export function monthRangeLabel(first: string, last: string): string {
  const a = monthIndex(first);
  const b = monthIndex(last);
  if (a === null || b === null) return first === last ? first : `${first}–${last}`;
  const from = shortMonth(a);
  const to = shortMonth(b);
  if (a === b) return `${from.month} ${from.year}`;
  if (from.year === to.year) return `${from.month}–${to.month} ${to.year}`;
  return `${from.month} ${from.year}–${to.month} ${to.year}`;
}

/**
 * The lines of a receipt as a parent reads them: consecutive months of one head in one session
 * become one line ("Tuition Fee, Apr–Jun 2026, ₹4,500.00"); heads without months stay one line
 * each. Heads keep the order they first appear in; months run in calendar order. The groups add
 * up to the receipt's total to the paisa.
 */
export function groupReceiptLines(lines: readonly ReceiptLineInput[]): ReceiptLineGroup[] {
  type Open = { label: string; head: string; year: string; first: string; last: string; lastIndex: number; amount: number; lines: number };
  const order = new Map<string, number>();
  lines.forEach((l) => order.has(`${l.head}|${l.academicYear}`) || order.set(`${l.head}|${l.academicYear}`, order.size));
  const sorted = lines
    .map((l, i) => ({ l, i }))
    .sort((x, y) => {
      const byHead = order.get(`${x.l.head}|${x.l.academicYear}`)! - order.get(`${y.l.head}|${y.l.academicYear}`)!;
      if (byHead !== 0) return byHead;
      if (x.l.period && y.l.period && x.l.period !== y.l.period) return x.l.period < y.l.period ? -1 : 1;
      return x.i - y.i;
    })
    .map((x) => x.l);

  const groups: ReceiptLineGroup[] = [];
  let open: Open | null = null;
  const close = () => {
    if (!open) return;
    groups.push({ label: open.label, period: monthRangeLabel(open.first, open.last), amount: toRupeeString(open.amount as Paise), lines: open.lines });
    open = null;
  };
  for (const line of sorted) {
    const amount = parseRupees(line.amount) ?? 0;
    const label = line.head === 'previous_balance' ? RECEIPT_TEXTS.previousBalance(line.academicYear) : line.headLabel;
    const index = line.period ? monthIndex(line.period) : null;
    if (index === null) {
      close();
      groups.push({ label, period: line.period ?? line.academicYear, amount: toRupeeString(amount as Paise), lines: 1 });
      continue;
    }
    const current = open as Open | null;
    if (current && current.head === line.head && current.year === line.academicYear && index <= current.lastIndex + 1) {
      current.last = index > current.lastIndex ? line.period! : current.last;
      current.lastIndex = Math.max(current.lastIndex, index);
      current.amount += amount;
      current.lines += 1;
      continue;
    }
    close();
    open = { label, head: line.head, year: line.academicYear, first: line.period!, last: line.period!, lastIndex: index, amount, lines: 1 };
  }
  close();
  return groups;
}
