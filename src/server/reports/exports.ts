import { PassThrough, type Readable } from 'node:stream';
import { monthLabel } from '../../domain/ledger';
import { toRupeeString, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { CSV_BOM, csvLine } from '../lib/csv';
import { XlsxWriter } from '../lib/xlsx-stream';
import { expenseRows, feeTableParts, financialSummary, monthWindows, type FeeTablePart, type FinancialTotals, type Period } from './financial';

/**
 * Downloads of the Financial report: an Excel workbook (summary and the three tables, each with a
 * total row) and a CSV of the same. Both are written as a stream, a month of rows at a time, so a
 * school of any size can export years without the server holding them all; the next month is read
 * while one is written (`feeTableParts`), and the first beside the summary.
 */

type PartResult = IteratorResult<FeeTablePart, void>;

/** `monthLabel` made once per month of a download: a year of a large school names 12 months 634,000 times. */
function monthLabels(): (key: string) => string {
  const labels = new Map<string, string>();
  return (key) => {
    let label = labels.get(key);
    if (label === undefined) {
      label = monthLabel(key);
      labels.set(key, label);
    }
    return label;
  };
}

/**
 * Runs `write` with the summary and the fee tables' pages (`nextPart`, in order; on PostgreSQL the
 * next window of months is read while one is written, `feeTableParts`). Whatever `write` does, the
 * months it did not read are closed.
 *
 * The summary is read before the first month is opened, not beside it: the month's cursor holds its
 * connection until `write` reads it, after the summary, so downloads as many as the pool's
 * connections each held a month and waited for a connection for their summary, and the pool and
 * every request behind it waited for ever (decision 0076).
 */
async function withSummaryAndParts(db: Db, period: Period, write: (summary: FinancialTotals, nextPart: () => Promise<PartResult>) => Promise<void>): Promise<void> {
  const summary = await financialSummary(db, period);
  const parts = feeTableParts(db, period);
  try {
    await write(summary, () => parts.next());
  } finally {
    await parts.return(undefined);
  }
}

export interface ReportHeader {
  schoolName: string;
  from: string;
  to: string;
  generatedAt: string;
}

export function financialXlsx(db: Db, period: Period, header: ReportHeader, log: (error: unknown) => void): Readable {
  const book = new XlsxWriter({ creator: header.schoolName });
  void withSummaryAndParts(db, period, async (summary, nextPart) => {
    const income = summary.totalIncome;

    const s = book.sheet('Summary', [{ width: 34 }, { width: 22, kind: 'money' }]);
    s.row([`${header.schoolName}: Financial Report`], 'title');
    s.row(['Period', `${header.from} to ${header.to}`]);
    s.row(['Generated', header.generatedAt]);
    s.blank();
    s.row(['Monthly fee income', summary.monthlyIncome]);
    s.row(['Yearly fee income', summary.yearlyIncome]);
    s.row(['Other fee income', summary.otherIncome]);
    s.row(['Arrears collected', summary.arrearsCollected]);
    if (summary.creditReceived || summary.creditApplied || summary.creditRefunded) {
      s.row(['Credit received online (fee already paid)', summary.creditReceived]);
      s.row(['Less: fees paid from credit', -summary.creditApplied]);
      s.row(['Less: credit refunded', -summary.creditRefunded]);
    }
    s.row(['Total income', income], 'bold');
    s.row(['Total expenses', summary.expenses]);
    s.row(['Net profit', income - summary.expenses], 'bold');
    await s.end();

    const m = book.sheet('Monthly Fees', [
      { width: 26 },
      { width: 11 },
      { width: 8 },
      { width: 8 },
      { width: 16 },
      { width: 13, kind: 'money' },
      { width: 12, kind: 'money' },
      { width: 13, kind: 'date' },
      { width: 13, kind: 'money' },
    ], ['Student Name', 'Class', 'Section', 'Roll No.', 'Month', 'Tuition Fee', 'Bus Fee', 'Payment Date', 'Total']);
    let tuition = 0;
    let bus = 0;
    const label = monthLabels();
    let part = await nextPart();
    for (; !part.done && part.value.table === 'monthly'; part = await nextPart()) {
      for (const r of part.value.rows) {
        tuition += r.tuition;
        bus += r.bus;
        if (m.row([r.studentName, r.className, r.section, r.rollNumber, label(r.period), r.tuition, r.bus, r.paidOn, r.tuition + r.bus])) await m.flush();
      }
    }
    m.row(['Total', '', '', '', '', tuition, bus, '', tuition + bus], 'bold');
    await m.end();

    const heads = ['Admission', 'Exam', 'Books', 'Uniform', 'Misc', 'Other'] as const;
    const y = book.sheet('Yearly Fees', [
      { width: 26 },
      { width: 11 },
      { width: 8 },
      { width: 8 },
      { width: 13 },
      ...heads.map(() => ({ width: 12, kind: 'money' as const })),
      { width: 13, kind: 'money' },
      { width: 13, kind: 'date' },
    ], ['Student Name', 'Class', 'Section', 'Roll No.', 'Academic Year', ...heads, 'Total', 'Payment Date']);
    const yt = [0, 0, 0, 0, 0, 0];
    for (; !part.done && part.value.table === 'yearly'; part = await nextPart()) {
      for (const r of part.value.rows) {
        const amounts = [r.admission, r.exam, r.books, r.uniform, r.misc, r.other];
        amounts.forEach((a, i) => (yt[i]! += a));
        if (y.row([r.studentName, r.className, r.section, r.rollNumber, r.academicYear, ...amounts, amounts.reduce((a, b) => a + b, 0), r.paidOn])) await y.flush();
      }
    }
    y.row(['Total', '', '', '', '', ...yt, yt.reduce((a, b) => a + b, 0), ''], 'bold');
    await y.end();

    const e = book.sheet('Expenses', [{ width: 13, kind: 'date' }, { width: 40 }, { width: 22 }, { width: 14, kind: 'money' }], ['Date', 'Description', 'Category', 'Amount']);
    let spent = 0;
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await expenseRows(db, { ...period, ...w })) {
        spent += r.amount;
        if (e.row([r.date, r.description, r.category, r.amount])) await e.flush();
      }
    }
    e.row(['Total', '', '', spent], 'bold');
    await e.end();
    await book.end();
  }).catch((error: unknown) => {
    if (!book.gone) log(error);
    book.abort(error instanceof Error ? error : new Error(String(error)));
  });
  return book.output;
}

/** The same report as CSV: the summary, then each table under its own heading, with total rows. */
export function financialCsv(db: Db, period: Period, header: ReportHeader, log: (error: unknown) => void): PassThrough {
  const out = new PassThrough();
  void withSummaryAndParts(db, period, async (summary, nextPart) => {
    const write = (cells: Array<string | number>) => out.write(csvLine(cells));
    // a page of rows at a time, waiting while the reader is behind
    const send = async (chunk: string) => {
      if (out.destroyed) throw new Error('the download was closed before it was finished');
      if (out.write(chunk)) return;
      await new Promise<void>((resolve, reject) => {
        const drained = () => {
          out.off('close', closed);
          resolve();
        };
        const closed = () => {
          out.off('drain', drained);
          reject(new Error('the download was closed before it was finished'));
        };
        out.once('drain', drained);
        out.once('close', closed);
      });
    };
    const income = summary.totalIncome;
    out.write(CSV_BOM);
    write([`${header.schoolName}: Financial Report`]);
    write(['Period', `${header.from} to ${header.to}`]);
    write(['Generated', header.generatedAt]);
    out.write('\r\n');
    write(['Summary', 'Amount']);
    write(['Monthly fee income', toRupeeString(summary.monthlyIncome)]);
    write(['Yearly fee income', toRupeeString(summary.yearlyIncome)]);
    write(['Other fee income', toRupeeString(summary.otherIncome)]);
    write(['Arrears collected', toRupeeString(summary.arrearsCollected)]);
    if (summary.creditReceived || summary.creditApplied || summary.creditRefunded) {
      write(['Credit received online (fee already paid)', toRupeeString(summary.creditReceived)]);
      write(['Less: fees paid from credit', toRupeeString(-summary.creditApplied as Paise)]);
      write(['Less: credit refunded', toRupeeString(-summary.creditRefunded as Paise)]);
    }
    write(['Total income', toRupeeString(income)]);
    write(['Total expenses', toRupeeString(summary.expenses)]);
    write(['Net profit', toRupeeString((income - summary.expenses) as Paise)]);
    out.write('\r\n');

    write(['Monthly Fee Collections']);
    write(['Student Name', 'Class', 'Section', 'Roll No.', 'Month', 'Tuition Fee', 'Bus Fee', 'Payment Date', 'Total']);
    let tuition = 0;
    let bus = 0;
    const label = monthLabels();
    let part = await nextPart();
    for (; !part.done && part.value.table === 'monthly'; part = await nextPart()) {
      let chunk = '';
      for (const r of part.value.rows) {
        tuition += r.tuition;
        bus += r.bus;
        chunk += csvLine([r.studentName, r.className, r.section, r.rollNumber, label(r.period), toRupeeString(r.tuition), toRupeeString(r.bus), r.paidOn, toRupeeString((r.tuition + r.bus) as Paise)]);
      }
      await send(chunk);
    }
    write(['Total', '', '', '', '', toRupeeString(tuition as Paise), toRupeeString(bus as Paise), '', toRupeeString((tuition + bus) as Paise)]);
    out.write('\r\n');

    write(['Yearly Fee Collections']);
    write(['Student Name', 'Class', 'Section', 'Roll No.', 'Academic Year', 'Admission', 'Exam', 'Books', 'Uniform', 'Misc', 'Other', 'Total', 'Payment Date']);
    const yt = [0, 0, 0, 0, 0, 0];
    for (; !part.done && part.value.table === 'yearly'; part = await nextPart()) {
      let chunk = '';
      for (const r of part.value.rows) {
        const amounts = [r.admission, r.exam, r.books, r.uniform, r.misc, r.other];
        amounts.forEach((a, i) => (yt[i]! += a));
        chunk += csvLine([r.studentName, r.className, r.section, r.rollNumber, r.academicYear, ...amounts.map(toRupeeString), toRupeeString(amounts.reduce((a, b) => a + b, 0) as Paise), r.paidOn]);
      }
      await send(chunk);
    }
    write(['Total', '', '', '', '', ...yt.map((a) => toRupeeString(a as Paise)), toRupeeString(yt.reduce((a, b) => a + b, 0) as Paise), '']);
    out.write('\r\n');

    write(['Expenses']);
    write(['Date', 'Description', 'Category', 'Amount']);
    let spent = 0;
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await expenseRows(db, { ...period, ...w })) {
        spent += r.amount;
        write([r.date, r.description, r.category, toRupeeString(r.amount)]);
      }
    }
    write(['Total', '', '', toRupeeString(spent as Paise)]);
    out.end();
  }).catch((error: unknown) => {
    log(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
