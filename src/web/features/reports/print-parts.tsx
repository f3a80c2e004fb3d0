import type { ReactNode } from 'react';
import { cn } from '@/web/lib/utils';

/** Pieces of the printable reports: plain, black on white on paper, and readable on screen. */

export function PrintHeader({ schoolName, title, lines }: { schoolName: string; title: string; lines: string[] }) {
  return (
    <header className="border-b pb-3 text-center">
      <p className="text-xl font-bold">{schoolName}</p>
      <h1 className="text-lg font-semibold">{title}</h1>
      {lines.map((l) => (
        <p key={l} className="text-sm text-muted-foreground print:text-black">
          {l}
        </p>
      ))}
    </header>
  );
}

export function PrintFooter() {
  return (
    <footer className="mt-6 border-t pt-2 text-center text-xs text-muted-foreground print:text-black">
      This is a computer-generated report from the school's fee ledger. Amounts are in Indian rupees.
    </footer>
  );
}

export function SummaryGrid({ items }: { items: Array<{ label: string; value: ReactNode; tone?: 'default' | 'good' | 'bad' | undefined }> }) {
  return (
    <dl className="my-4 grid grid-cols-2 gap-2 sm:grid-cols-4 print:grid-cols-4">
      {items.map((s) => (
        <div key={s.label} className="rounded-md border p-2">
          <dt className="text-xs text-muted-foreground print:text-black">{s.label}</dt>
          <dd className={cn('font-semibold tabular-nums', s.tone === 'good' && 'text-success', s.tone === 'bad' && 'text-destructive')}>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface PrintColumn {
  key: string;
  label: string;
  numeric?: boolean;
}

export function PrintTable({
  title,
  columns,
  rows,
  totals,
  empty,
  note,
  dense = false,
}: {
  title: string;
  columns: PrintColumn[];
  rows: Array<Record<string, ReactNode>>;
  totals: Record<string, ReactNode> | null;
  empty: string;
  note?: string | undefined;
  /** on paper: small type, tight rows and one line per row, so a long list takes few pages */
  dense?: boolean;
}) {
  const cell = dense ? 'print:px-1 print:py-px print:whitespace-nowrap print:leading-tight' : '';
  return (
    // a short table stays on one page; a long one (the defaulters) may start where the page has room
    <section className={cn('mt-5 print:mt-3', rows.length <= 20 && 'break-inside-avoid-page')}>
      <h2 className="mb-1 text-base font-semibold">{title}</h2>
      {note ? <p className="mb-1 text-xs text-muted-foreground print:text-black">{note}</p> : null}
      <div className="overflow-x-auto print:overflow-visible">
        <table className={cn('w-full border-collapse text-xs sm:text-sm', dense ? 'print:text-[7.5pt]' : 'print:text-[10pt]')}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} className={cn('border bg-muted px-2 py-1 text-left font-semibold print:bg-gray-100', cell, c.numeric && 'text-right')}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="border px-2 py-3 text-center text-muted-foreground">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((r, i) => (
                <tr key={i} className="break-inside-avoid">
                  {columns.map((c) => (
                    <td key={c.key} className={cn('border px-2 py-1 align-top', cell, c.numeric && 'text-right tabular-nums whitespace-nowrap')}>
                      {r[c.key]}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
          {totals && rows.length > 0 ? (
            // the total once, after the last row (a repeated footer would look like a page total)
            <tfoot className="print:table-row-group">
              <tr className="font-semibold">
                {columns.map((c) => (
                  <td key={c.key} className={cn('border bg-muted/60 px-2 py-1 print:bg-gray-50', cell, c.numeric && 'text-right tabular-nums whitespace-nowrap')}>
                    {totals[c.key]}
                  </td>
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </section>
  );
}
