import { CONTACT, FACTS, LAST_UPDATED } from './policy-facts';
import { PolicyPage, Section } from './policy-layout';

export function ShippingPage() {
  return (
    <PolicyPage
      title="Shipping and Delivery Policy"
      lastUpdated={LAST_UPDATED.shipping}
      intro={
        <p>
          {CONTACT.company} is an online service. Nothing is shipped: you use it in your web browser, on a computer, tablet or phone, wherever
          you have an internet connection.
        </p>
      }
    >
      <Section title="1. No physical delivery">
        <p>There are no physical goods, no shipping charges and no delivery address needed. We serve schools across India.</p>
      </Section>

      <Section title="2. When you get access">
        <ul>
          <li>Your account is ready as soon as you confirm your email address after registering; your {FACTS.trialDays}-day free trial starts then.</li>
          <li>
            A paid subscription is activated instantly when the payment succeeds. You receive a confirmation by email, and the plan shows on
            your dashboard.
          </li>
          <li>
            If your payment succeeded but the plan is not active within 30 minutes, write to {CONTACT.email} with the payment ID and we will
            activate it or refund you.
          </li>
        </ul>
      </Section>

      <Section title="3. Receipts and documents">
        <p>
          Fee receipts, reports and marksheets are produced in the app, to print or download. Receipts for parents&apos; online fee payments are
          issued by the school.
        </p>
      </Section>

      <Section title="4. Support response times">
        <ul>
          <li>Critical issues (you cannot sign in, collect fees or issue receipts): a response within {FACTS.criticalReplyHours} hours.</li>
          <li>General questions: a response within {FACTS.supportReplyHours} hours.</li>
          <li>Support hours: {FACTS.supportHours}.</li>
        </ul>
      </Section>

      <Section title="5. Availability">
        <p>
          We aim for {FACTS.uptimePercent} availability each month. Planned maintenance is announced at least {FACTS.maintenanceNoticeHours}{' '}
          hours ahead by email.
        </p>
      </Section>
    </PolicyPage>
  );
}
