import { forwardRef } from 'react';
import { FA_FIELDS, MARK_MAX } from '@/domain/results';
import { formatDate } from '@/web/lib/format';
import type { Marksheet } from './api';

/**
 * The Student Report Card (operations §2): a white paper-like card in both themes, the same
 * markup on screen and in the print window.
 */
export const ReportCard = forwardRef<HTMLElement, { sheet: Marksheet }>(function ReportCard({ sheet }, ref) {
  const { school, student, grandTotal: g } = sheet;
  const info: Array<[string, string]> = [
    ['Admission No', student.admissionNumber ?? '—'],
    ['Name', student.name],
    ["Father's Name", student.fatherName || '—'],
    ["Mother's Name", student.motherName || '—'],
    ['Class', `${student.class} ${student.section}`],
    ['Roll No', String(student.rollNumber)],
    ['Date of Birth', student.dateOfBirth ? formatDate(student.dateOfBirth) : '—'],
    ['Residence', student.residence || '—'],
  ];
  const th = 'border border-slate-400 px-1.5 py-1 text-center font-semibold';
  const td = 'border border-slate-300 px-1.5 py-1 text-center tabular-nums';
  return (
    <article ref={ref} className="print-sheet mx-auto w-full max-w-[1120px] rounded-sm border-2 border-blue-900 bg-white p-4 text-slate-900 shadow-sm sm:p-6" data-testid="report-card">
      <header className="text-center">
        <div className="flex flex-wrap justify-between gap-2 text-xs text-slate-600">
          <span>{school.phone ? `Phone: ${school.phone}` : ''}</span>
          <span>{school.schoolCode ? `School Code: ${school.schoolCode}` : ''}</span>
        </div>
        <h2 className="mt-1 text-xl font-bold text-blue-900 sm:text-2xl">{school.name}</h2>
        {school.address ? <p className="text-sm text-slate-600">{school.address}</p> : null}
        <div className="my-2 border-t-2 border-blue-900" />
        <h3 className="text-lg font-bold uppercase tracking-wider">Student Report Card</h3>
        <p className="text-sm text-slate-600">Academic Session {sheet.academicSession}</p>
      </header>

      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-4">
        {info.map(([label, value]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="shrink-0 font-semibold text-slate-600">{label}:</dt>
            <dd className="min-w-0 break-words">{value}</dd>
          </div>
        ))}
      </dl>

      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[720px] border-collapse text-sm" aria-label="Marks by subject">
          <thead className="bg-blue-50">
            <tr>
              <th className={`${th} text-left`}>Subject</th>
              {FA_FIELDS.map((f) => (
                <th key={f} className={th}>{f.toUpperCase()} ({MARK_MAX[f]})</th>
              ))}
              <th className={th}>FA (30)</th>
              <th className={th}>CA ({MARK_MAX.ca})</th>
              <th className={th}>SA ({MARK_MAX.sa})</th>
              <th className={th}>Total (100)</th>
              <th className={th}>Percent</th>
              <th className={th}>Grade</th>
            </tr>
          </thead>
          <tbody>
            {sheet.subjects.map((name) => {
              const r = sheet.resultsBySubject[name];
              return (
                <tr key={name}>
                  <td className={`${td} text-left font-medium`}>{name}</td>
                  {FA_FIELDS.map((f) => (
                    <td key={f} className={td}>{r?.[f] ?? ''}</td>
                  ))}
                  <td className={td}>{r?.fa ?? ''}</td>
                  <td className={td}>{r?.ca ?? ''}</td>
                  <td className={td}>{r?.sa ?? ''}</td>
                  <td className={`${td} font-semibold`}>{r?.total ?? ''}</td>
                  <td className={td}>{r ? `${r.percent}%` : ''}</td>
                  <td className={`${td} font-semibold`}>{r?.grade ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot className="bg-slate-100 font-bold">
            <tr>
              <td className={`${td} text-left`}>Grand Total</td>
              <td className={td} colSpan={6} />
              <td className={td}>{g.fa}</td>
              <td className={td}>{g.ca}</td>
              <td className={td}>{g.sa}</td>
              <td className={td} data-testid="grand-total">{g.total} / {g.maxMarks}</td>
              <td className={td} data-testid="grand-percent">{g.percent}%</td>
              <td className={td}>{g.grade ?? '—'}</td>
            </tr>
          </tfoot>
        </table>
      </div>

      <section className="mt-3 min-h-16 rounded-sm border border-slate-400 p-2 text-sm" aria-label="Remarks">
        <p className="font-semibold">Remarks:</p>
        <p className="whitespace-pre-line">{sheet.remarks}</p>
      </section>

      <div className="mt-12 grid grid-cols-3 gap-4 text-center text-sm font-semibold sm:gap-10">
        {['Exam Incharge', 'Checker', 'Principal'].map((label) => (
          <div key={label} className="border-t border-slate-800 pt-1">{label}</div>
        ))}
      </div>

      <footer className="mt-4 text-center text-[11px] text-slate-500">Generated by School Ledger</footer>
    </article>
  );
});
