import { CONTACT, FACTS, LAST_UPDATED } from './policy-facts';
import { PolicyPage, Section } from './policy-layout';

export function RefundsPage() {
  return (
    <PolicyPage
      title="Refund and Cancellation Policy"
      lastUpdated={LAST_UPDATED.refunds}
      intro={
        <p>
          We want schools to pay for {CONTACT.company} only if it works for them. That is why there is a free trial, and why every subscription
          payment comes with a {FACTS.refundWindowDays}-day money-back guarantee.
        </p>
      }
    >
      <Section title={`1. ${FACTS.refundWindowDays}-day money-back guarantee`}>
        <p>
          If you are not satisfied, ask for a refund within {FACTS.refundWindowDays} days of the payment date and we refund the full amount
          you paid for that subscription, GST included. No reasons are required, though we are glad to hear them.
        </p>
      </Section>

      <Section title="2. How to ask for a refund">
        <ul>
          <li>
            Email <a href={`mailto:${CONTACT.email}`} className="font-medium text-primary hover:underline">{CONTACT.email}</a> from the
            school&apos;s registered email address.
          </li>
          <li>Include the school name and the payment ID or date of payment shown on your receipt.</li>
          <li>We confirm the refund by email within one business day. The subscription ends when the refund is issued.</li>
        </ul>
      </Section>

      <Section title="3. When the money reaches you">
        <p>
          Refunds go back to the payment method you used and are processed within {FACTS.refundProcessing} of approval. How soon the money shows
          in your account then depends on the method:
        </p>
        <div className="overflow-x-auto">
          <table className="w-full max-w-md text-sm">
            <thead>
              <tr className="border-b text-left text-muted-foreground">
                <th className="py-2 pr-4 font-medium">Payment method</th>
                <th className="py-2 font-medium">Time to reach you</th>
              </tr>
            </thead>
            <tbody>
              {FACTS.refundByMethod.map((row) => (
                <tr key={row.method} className="border-b last:border-0">
                  <td className="py-2 pr-4">{row.method}</td>
                  <td className="py-2">{row.time}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section title={`4. After ${FACTS.refundWindowDays} days`}>
        <p>
          After the guarantee period, payments are not refunded for the unused part of a period. You can cancel at any time: renewal stops, you
          keep access until the end of the period you paid for, and you are not charged again.
        </p>
      </Section>

      <Section title="5. Outages, double charges and failed activations">
        <ul>
          <li>
            If the service is unavailable for more than {FACTS.outageRefundHours} hours in a row through our fault, we refund or credit the
            affected time, as you prefer.
          </li>
          <li>
            If you were charged twice, or money left your account but the subscription did not activate, we refund the extra amount in full. Write
            to us with the payment ID; such refunds do not count against the guarantee.
          </li>
        </ul>
      </Section>

      <Section title="6. Your data after cancellation">
        <p>
          A cancelled or refunded school keeps read-only access and can export all of its data for {FACTS.dataKeptAfterExpiryDays} days after
          the subscription ends.
        </p>
      </Section>

      <Section title="7. Fees paid by parents to schools">
        <p>
          This policy covers subscriptions that schools buy from {CONTACT.company}. Fees that parents pay to a school through a payment link are
          paid to the school; refunds of those fees are decided by the school, so please contact the school directly.
        </p>
      </Section>
    </PolicyPage>
  );
}
