import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { monthLabel } from '../../domain/ledger';
import { toRupeeString, type Paise } from '../../domain/money';
import type { Db } from '../db/client';
import { CSV_BOM, csvLine } from '../lib/csv';
import { expenseRows, financialSummary, monthlyFeeRows, monthWindows, yearlyFeeRows, type Period } from './financial';

/**
 * Downloads of the Financial report: an Excel workbook (summary and the three tables, each with a
 * total row) and a CSV of the same. Both are written as a stream, a month of rows at a time, so a
 * school of any size can export years without the server holding them all.
 */

/** Rupees as a spreadsheet number: formatting at the edge, from exact paise. */
const cellRupees = (amount: Paise) => Number(toRupeeString(amount));
const cellDate = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const MONEY_FORMAT = '#,##,##0.00';
const DATE_FORMAT = 'dd-mm-yyyy';

export interface ReportHeader {
  schoolName: string;
  from: string;
  to: string;
  generatedAt: string;
}

export const FINANCIAL_SHEETS = ['Summary', 'Monthly Fees', 'Yearly Fees', 'Expenses'] as const;

export function financialXlsx(db: Db, period: Period, header: ReportHeader, log: (error: unknown) => void): PassThrough {
  const out = new PassThrough();
  void (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = header.schoolName;
    const summary = await financialSummary(db, period);
    const income = summary.totalIncome;

    const s = workbook.addWorksheet('Summary');
    s.columns = [{ width: 34 }, { width: 22 }];
    s.addRow([`${header.schoolName}: Financial Report`]).font = { bold: true, size: 14 };
    s.addRow(['Period', `${header.from} to ${header.to}`]);
    s.addRow(['Generated', header.generatedAt]);
    s.addRow([]);
    const money = (label: string, amount: number) => {
      const row = s.addRow([label, cellRupees(amount as Paise)]);
      row.getCell(2).numFmt = MONEY_FORMAT;
      return row;
    };
    money('Monthly fee income', summary.monthlyIncome);
    money('Yearly fee income', summary.yearlyIncome);
    money('Other fee income', summary.otherIncome);
    money('Arrears collected', summary.arrearsCollected);
    if (summary.creditReceived || summary.creditApplied || summary.creditRefunded) {
      money('Credit received online (fee already paid)', summary.creditReceived);
      money('Less: fees paid from credit', -summary.creditApplied);
      money('Less: credit refunded', -summary.creditRefunded);
    }
    money('Total income', income).font = { bold: true };
    money('Total expenses', summary.expenses);
    money('Net profit', income - summary.expenses).font = { bold: true };
    s.commit();

    const m = workbook.addWorksheet('Monthly Fees');
    m.columns = [
      { header: 'Student Name', width: 26 },
      { header: 'Class', width: 11 },
      { header: 'Section', width: 8 },
      { header: 'Roll No.', width: 8 },
      { header: 'Month', width: 16 },
      { header: 'Tuition Fee', width: 13, style: { numFmt: MONEY_FORMAT } },
      { header: 'Bus Fee', width: 12, style: { numFmt: MONEY_FORMAT } },
      { header: 'Payment Date', width: 13, style: { numFmt: DATE_FORMAT } },
      { header: 'Total', width: 13, style: { numFmt: MONEY_FORMAT } },
    ];
    m.getRow(1).font = { bold: true };
    let tuition = 0;
    let bus = 0;
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await monthlyFeeRows(db, { ...period, ...w })) {
        tuition += r.tuition;
        bus += r.bus;
        m.addRow([r.studentName, r.className, r.section, r.rollNumber, monthLabel(r.period), cellRupees(r.tuition), cellRupees(r.bus), cellDate(r.paidOn), cellRupees((r.tuition + r.bus) as Paise)]).commit();
      }
    }
    const mt = m.addRow(['Total', '', '', '', '', cellRupees(tuition as Paise), cellRupees(bus as Paise), '', cellRupees((tuition + bus) as Paise)]);
    mt.font = { bold: true };
    mt.commit();
    m.commit();

    const y = workbook.addWorksheet('Yearly Fees');
    const heads = ['Admission', 'Exam', 'Books', 'Uniform', 'Misc', 'Other'] as const;
    y.columns = [
      { header: 'Student Name', width: 26 },
      { header: 'Class', width: 11 },
      { header: 'Section', width: 8 },
      { header: 'Roll No.', width: 8 },
      { header: 'Academic Year', width: 13 },
      ...heads.map((h) => ({ header: h, width: 12, style: { numFmt: MONEY_FORMAT } })),
      { header: 'Total', width: 13, style: { numFmt: MONEY_FORMAT } },
      { header: 'Payment Date', width: 13, style: { numFmt: DATE_FORMAT } },
    ];
    y.getRow(1).font = { bold: true };
    const yt = [0, 0, 0, 0, 0, 0];
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await yearlyFeeRows(db, { ...period, ...w })) {
        const amounts = [r.admission, r.exam, r.books, r.uniform, r.misc, r.other];
        amounts.forEach((a, i) => (yt[i]! += a));
        const total = amounts.reduce((a, b) => a + b, 0) as Paise;
        y.addRow([r.studentName, r.className, r.section, r.rollNumber, r.academicYear, ...amounts.map(cellRupees), cellRupees(total), cellDate(r.paidOn)]).commit();
      }
    }
    const ytr = y.addRow(['Total', '', '', '', '', ...yt.map((a) => cellRupees(a as Paise)), cellRupees(yt.reduce((a, b) => a + b, 0) as Paise), '']);
    ytr.font = { bold: true };
    ytr.commit();
    y.commit();

    const e = workbook.addWorksheet('Expenses');
    e.columns = [
      { header: 'Date', width: 13, style: { numFmt: DATE_FORMAT } },
      { header: 'Description', width: 40 },
      { header: 'Category', width: 22 },
      { header: 'Amount', width: 14, style: { numFmt: MONEY_FORMAT } },
    ];
    e.getRow(1).font = { bold: true };
    let spent = 0;
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await expenseRows(db, { ...period, ...w })) {
        spent += r.amount;
        e.addRow([cellDate(r.date), r.description, r.category, cellRupees(r.amount)]).commit();
      }
    }
    const et = e.addRow(['Total', '', '', cellRupees(spent as Paise)]);
    et.font = { bold: true };
    et.commit();
    e.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    log(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

/** The same report as CSV: the summary, then each table under its own heading, with total rows. */
export function financialCsv(db: Db, period: Period, header: ReportHeader, log: (error: unknown) => void): PassThrough {
  const out = new PassThrough();
  void (async () => {
    const write = (cells: Array<string | number>) => out.write(csvLine(cells));
    const summary = await financialSummary(db, period);
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
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await monthlyFeeRows(db, { ...period, ...w })) {
        tuition += r.tuition;
        bus += r.bus;
        write([r.studentName, r.className, r.section, r.rollNumber, monthLabel(r.period), toRupeeString(r.tuition), toRupeeString(r.bus), r.paidOn, toRupeeString((r.tuition + r.bus) as Paise)]);
      }
    }
    write(['Total', '', '', '', '', toRupeeString(tuition as Paise), toRupeeString(bus as Paise), '', toRupeeString((tuition + bus) as Paise)]);
    out.write('\r\n');

    write(['Yearly Fee Collections']);
    write(['Student Name', 'Class', 'Section', 'Roll No.', 'Academic Year', 'Admission', 'Exam', 'Books', 'Uniform', 'Misc', 'Other', 'Total', 'Payment Date']);
    const yt = [0, 0, 0, 0, 0, 0];
    for (const w of monthWindows(period.from, period.to)) {
      for (const r of await yearlyFeeRows(db, { ...period, ...w })) {
        const amounts = [r.admission, r.exam, r.books, r.uniform, r.misc, r.other];
        amounts.forEach((a, i) => (yt[i]! += a));
        write([r.studentName, r.className, r.section, r.rollNumber, r.academicYear, ...amounts.map(toRupeeString), toRupeeString(amounts.reduce((a, b) => a + b, 0) as Paise), r.paidOn]);
      }
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
  })().catch((error: unknown) => {
    log(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
