import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from '@/web/components/auth-layout';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { CONTACT, FACTS } from './policy-facts';

const FAQ: { q: string; a: ReactNode }[] = [
  {
    q: 'How does the free trial work?',
    a: (
      <>
        Register your school and confirm your email address: your {FACTS.trialDays}-day free trial starts at that moment. No card is needed.
        When it ends you can still sign in and see your data, and choose a plan to keep working.
      </>
    ),
  },
  {
    q: 'How can we pay?',
    a: (
      <>
        By UPI, debit or credit card, net banking or wallet, through our payment partner Razorpay. Prices exclude GST; {FACTS.gstPercent}% GST
        is shown before you pay, and your first subscription is {FACTS.firstSubscriptionDiscountPercent}% off. The plan is active as soon as
        the payment succeeds.
      </>
    ),
  },
  {
    q: "Is our students' data safe?",
    a: (
      <>
        Yes. Each school&apos;s data is kept apart and is never visible to another school. Everything travels over HTTPS, Aadhaar numbers are
        encrypted and shown masked, and every change to fees is logged. Your school owns its data and can export it at any time. Read the{' '}
        <Link to="/privacy" className="font-medium text-primary hover:underline">Privacy Policy</Link> for details.
      </>
    ),
  },
  {
    q: 'Can we cancel?',
    a: (
      <>
        Anytime. Renewal stops and you keep access until the end of the period you paid for. Within {FACTS.refundWindowDays} days of a payment
        you can ask for a full refund (see the <Link to="/refunds" className="font-medium text-primary hover:underline">Refund Policy</Link>).
        Your data stays available to view and export for {FACTS.dataKeptAfterExpiryDays} days after the subscription ends.
      </>
    ),
  },
  {
    q: 'Which plan do we need?',
    a: <>It depends on your number of students: Basic up to 100, Standard up to 500, Premium unlimited. You can move to a larger plan at any time.</>,
  },
];

/** Contact page (operations §2 Public pages). */
export function ContactPage() {
  return (
    <AuthLayout width="medium">
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Contact us</h1>
        <p className="mt-2 text-muted-foreground">Questions about fees, your account or a payment? We are here to help.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <ContactCard icon={<MailIcon />} title="Email support">
          <a href={`mailto:${CONTACT.email}`} className="font-medium text-primary hover:underline">{CONTACT.email}</a>
          <p>We reply within {FACTS.supportReplyHours} hours, and within {FACTS.criticalReplyHours} hours for critical issues.</p>
        </ContactCard>
        {CONTACT.phone ? (
          <ContactCard icon={<PhoneIcon />} title="Phone support">
            <a href={`tel:${CONTACT.phone.replace(/\s/g, '')}`} className="font-medium text-primary hover:underline">{CONTACT.phone}</a>
            <p className="flex items-center gap-1.5">
              <ClockIcon className="size-3.5" />
              {FACTS.supportHoursShort}
            </p>
          </ContactCard>
        ) : null}
        {CONTACT.address ? (
          <ContactCard icon={<MapPinIcon />} title="Business address" className="sm:col-span-2">
            <address className="not-italic">{CONTACT.address}</address>
          </ContactCard>
        ) : null}
      </div>

      <section aria-labelledby="faq-heading" className="mt-10">
        <h2 id="faq-heading" className="mb-4 text-xl font-semibold">Frequently asked questions</h2>
        <div className="grid gap-2">
          {FAQ.map((item) => (
            <details key={item.q} className="group rounded-lg border bg-card px-4 py-3 shadow-sm">
              <summary className="cursor-pointer list-none font-medium marker:hidden [&::-webkit-details-marker]:hidden">
                <span className="flex items-center justify-between gap-3">
                  {item.q}
                  <span aria-hidden className="text-muted-foreground transition-transform group-open:rotate-45">+</span>
                </span>
              </summary>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{item.a}</p>
            </details>
          ))}
        </div>
      </section>
    </AuthLayout>
  );
}

function ContactCard({ icon, title, children, className }: { icon: ReactNode; title: string; children: ReactNode; className?: string }) {
  return (
    <Card className={className}>
      <CardHeader className="flex-row items-center gap-3 pb-2 sm:pb-2">
        <span className="flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-4">{icon}</span>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1 text-sm text-muted-foreground">{children}</CardContent>
    </Card>
  );
}
