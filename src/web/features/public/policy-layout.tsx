import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from '@/web/components/auth-layout';
import { formatLongDate } from '@/web/lib/format';
import { CONTACT } from './policy-facts';

/** The frame of a policy page: title, "Last updated", the sections, and where to ask questions. */
export function PolicyPage({ title, lastUpdated, intro, children }: { title: string; lastUpdated: string; intro: ReactNode; children: ReactNode }) {
  return (
    <AuthLayout width="medium">
      <article className="rounded-xl border bg-card p-5 shadow-sm sm:p-8">
        <header className="mb-6 border-b pb-5">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          <p className="mt-1 text-sm text-muted-foreground">Last updated: {formatLongDate(lastUpdated)}</p>
          <div className="mt-4 text-[0.95rem] leading-relaxed text-muted-foreground">{intro}</div>
        </header>
        <div className="grid gap-7">{children}</div>
        <footer className="mt-8 rounded-lg bg-muted/50 p-4 text-sm">
          Questions about this policy? Write to{' '}
          <a href={`mailto:${CONTACT.email}`} className="font-medium text-primary hover:underline">{CONTACT.email}</a> or see the{' '}
          <Link to="/contact" className="font-medium text-primary hover:underline">contact page</Link>.
        </footer>
      </article>
    </AuthLayout>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2.5 text-[0.95rem] leading-relaxed [&_li]:ml-5 [&_li]:list-disc [&_li]:pl-1 [&_ul]:grid [&_ul]:gap-1.5">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}
