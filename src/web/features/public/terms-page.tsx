import { Link } from 'react-router';
import { CONTACT, FACTS, LAST_UPDATED } from './policy-facts';
import { PolicyPage, Section } from './policy-layout';

export function TermsPage() {
  return (
    <PolicyPage
      title="Terms of Service"
      lastUpdated={LAST_UPDATED.terms}
      intro={
        <p>
          These terms are the agreement between {CONTACT.company} and the school that registers an account. By registering, the person who
          registers confirms they may accept them on the school&apos;s behalf.
        </p>
      }
    >
      <Section title="1. The service">
        <p>
          {CONTACT.company} is an online service for schools in India to manage students, fee collection and receipts, expenses, financial
          reports, academic results and marksheets, and online fee payment links for parents. It is provided over the internet; nothing is
          installed or shipped.
        </p>
      </Section>

      <Section title="2. Your account">
        <ul>
          <li>Registration needs the school&apos;s name, a working email address and a phone number. The email address must be confirmed.</li>
          <li>Keep your password private. Everything done with your account is treated as done by your school.</li>
          <li>Tell us at once at {CONTACT.email} if you think someone else has used your account.</li>
        </ul>
      </Section>

      <Section title="3. Free trial">
        <p>
          Every new school gets a {FACTS.trialDays}-day free trial of the plan chosen at registration (Basic if none). No card is needed. The trial starts when the email address
          is confirmed. When it ends, the school can still sign in, view and export its data, and choose a plan to continue making changes.
        </p>
      </Section>

      <Section title="4. Plans and prices">
        <ul>
          <li>Basic: up to 100 students. Standard: up to 500 students. Premium: unlimited students.</li>
          <li>
            Prices are in Indian rupees and exclude GST. GST at {FACTS.gstPercent}% is added at checkout and shown before you pay. Your first paid
            subscription gets a {FACTS.firstSubscriptionDiscountPercent}% discount on the plan price, before GST.
          </li>
          <li>Plans are paid in advance, monthly or yearly as you choose; a yearly plan runs one year and a monthly plan one month from payment.</li>
          <li>A school at its plan&apos;s student limit cannot add more students until it moves to a larger plan.</li>
          <li>We give at least {FACTS.priceChangeNoticeDays} days&apos; notice by email before a price change, which applies from your next renewal.</li>
        </ul>
      </Section>

      <Section title="5. Expiry and cancellation">
        <p>
          You can cancel at any time. Cancelling stops renewal: you keep full access until the end of the period you have paid for, and you are
          not charged again. When a trial or plan ends without renewal, the account becomes read-only: you can sign in, view and export your data,
          and pay to continue. We keep the data for {FACTS.dataKeptAfterExpiryDays} days after the end date, then delete it as described in the{' '}
          <Link to="/privacy" className="font-medium text-primary hover:underline">Privacy Policy</Link>. Refunds are covered by the{' '}
          <Link to="/refunds" className="font-medium text-primary hover:underline">Refund Policy</Link>.
        </p>
      </Section>

      <Section title="6. Your school's data">
        <p>
          The school owns the data it enters, and is responsible for having the right to record it, including the consent of parents or
          guardians where the law requires it. The school gives us permission to store and process that data only to provide the service. You
          can export it at any time.
        </p>
      </Section>

      <Section title="7. Acceptable use">
        <ul>
          <li>Use the service only for your school&apos;s own records and lawful fee collection.</li>
          <li>Do not try to reach another school&apos;s data, probe or overload the service, or get around plan limits.</li>
          <li>Do not upload malware or content that is unlawful or that you have no right to share.</li>
        </ul>
      </Section>

      <Section title="8. Availability and support">
        <ul>
          <li>
            We aim for {FACTS.uptimePercent} availability each month. Planned maintenance is announced at least {FACTS.maintenanceNoticeHours}{' '}
            hours ahead by email, and is scheduled outside school hours where possible.
          </li>
          <li>
            If the service is unavailable for more than {FACTS.outageRefundHours} hours in a row through our fault, you may ask for a refund or
            credit for that time.
          </li>
          <li>
            Support answers within {FACTS.supportReplyHours} hours, and within {FACTS.criticalReplyHours} hours for critical issues (you cannot
            sign in, collect fees or issue receipts). Support hours are {FACTS.supportHours}.
          </li>
        </ul>
      </Section>

      <Section title="9. Fees you collect from parents">
        <p>
          When parents pay a fee through a school&apos;s payment link, the money goes to the school through our payment partner. The school
          sets its fees and decides any refund of them; questions about a fee go to the school.
        </p>
      </Section>

      <Section title="10. Liability">
        <p>
          We take care to keep the service accurate and available, but provide it &ldquo;as is&rdquo;. To the extent the law allows, our total
          liability for any claim is limited to the subscription fees the school paid us in the 12 months before the claim, and we are not
          liable for indirect losses. Nothing here limits liability that cannot be limited under Indian law.
        </p>
      </Section>

      <Section title="11. Suspension and termination">
        <p>
          We may suspend an account that seriously or repeatedly breaks these terms, after notice where possible. You may close your account at
          any time by writing to us; you can export your data first.
        </p>
      </Section>

      <Section title="12. Changes to these terms">
        <p>
          We will email school administrators at least {FACTS.priceChangeNoticeDays} days before a material change. Continuing to use the
          service after that date means accepting the new terms.
        </p>
      </Section>

      <Section title="13. Law and disputes">
        <p>
          These terms are governed by the laws of India. Disputes are subject to the courts at {CONTACT.jurisdiction}. Before going to court,
          please write to us at {CONTACT.email}: most problems are solved quickly.
        </p>
      </Section>
    </PolicyPage>
  );
}
