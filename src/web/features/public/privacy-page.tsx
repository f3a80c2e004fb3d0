import { CONTACT, FACTS, LAST_UPDATED } from './policy-facts';
import { PolicyPage, Section } from './policy-layout';

export function PrivacyPage() {
  return (
    <PolicyPage
      title="Privacy Policy"
      lastUpdated={LAST_UPDATED.privacy}
      intro={
        <p>
          {CONTACT.company} helps schools in India keep their fee, accounting and results records. Schools trust us with information about
          their students, who are children, and their parents. This policy explains what we hold, why, who can see it, how long we keep it and
          what you can ask of us. It is written to meet the Digital Personal Data Protection Act, 2023 and the Information Technology Act, 2000.
        </p>
      }
    >
      <Section title="1. Who decides and who processes">
        <p>
          Each school decides what it records about its students and parents and why. For that information the school is the data fiduciary
          and {CONTACT.company} is its data processor: we store and process it only to run the service for that school, on the school&apos;s
          instructions, and for no purpose of our own. For the details of the school&apos;s own account (the administrator&apos;s name, email
          address and password, and the subscription) we are responsible ourselves.
        </p>
      </Section>

      <Section title="2. What we hold">
        <ul>
          <li>
            <strong>School account:</strong> school name, address, phone number, school code, the administrator&apos;s email address and a
            one-way hash of the password (we cannot read the password itself).
          </li>
          <li>
            <strong>Student records entered by the school:</strong> names, class, section and roll number, parents&apos; names and contact
            details, date of birth, address, Aadhaar number if the school chooses to record it, fees charged and received, concessions,
            receipts, marks and results.
          </li>
          <li>
            <strong>Payments:</strong> subscription payments and online fee payments are made through our payment partner (Razorpay). We keep the
            order and payment references and amounts. We never see or store card numbers, CVVs, UPI PINs or net banking passwords.
          </li>
          <li>
            <strong>Security records:</strong> sign-in history (time, IP address, success or failure) and an audit log of changes to money and
            student records (who, when, what), kept so that a school can always trace its books.
          </li>
        </ul>
      </Section>

      <Section title="3. Children's information">
        <p>
          Student records are about children. We process them only for the school that entered them, and only to provide fee collection,
          accounting, reports and results. We do not use them for advertising, marketing, profiling or tracking, we do not sell them, and we do
          not use them to train any model. The school is responsible for collecting them lawfully, including the verifiable consent of a parent
          or guardian where the law requires it, and for answering parents&apos; requests about them.
        </p>
      </Section>

      <Section title="4. Aadhaar numbers">
        <p>
          Recording an Aadhaar number is optional. When a school records one, it is encrypted before it is stored, and it is shown masked as
          XXXX XXXX 1234 on every screen, report and export. Only the school&apos;s administrator can reveal a full number, by a deliberate
          action, and every reveal is written to the school&apos;s audit log. We never use Aadhaar numbers for authentication and never share
          them.
        </p>
      </Section>

      <Section title="5. How we use information">
        <ul>
          <li>To run the service: sign-in, fee records, receipts, reports, results and payment links for the school.</li>
          <li>To send the emails the service needs: address confirmation, password reset, payment receipts and notices about your subscription.</li>
          <li>To keep accounts safe: detecting repeated failed sign-ins, investigating misuse and keeping audit records.</li>
          <li>To bill the school for its subscription and meet our tax and accounting obligations.</li>
        </ul>
      </Section>

      <Section title="6. Who else sees it">
        <p>
          Nothing one school records is ever visible to another school. Inside a school, only its signed-in administrators can see its records.
          We share information only with the service providers we need to run {CONTACT.company}, each bound by contract to use it only for us:
          our hosting provider, our email delivery provider, and our payment partner for payments. We disclose information to
          authorities only when Indian law requires it, and we tell the school unless the law forbids it.
        </p>
      </Section>

      <Section title="7. How we protect it">
        <ul>
          <li>All traffic is encrypted with HTTPS. Passwords are stored only as salted hashes.</li>
          <li>Every request is checked against the school of the signed-in user, so one school&apos;s data cannot be read by another.</li>
          <li>Aadhaar numbers are encrypted at rest. Backups are encrypted.</li>
          <li>Changes to money and student records are written to an audit log that cannot be edited from the app.</li>
          <li>Staff access to production systems is limited to what support needs and is itself logged.</li>
        </ul>
        <p>If a breach affects a school&apos;s data, we will inform the school and the Data Protection Board of India as the law requires.</p>
      </Section>

      <Section title="8. Your data belongs to your school">
        <p>
          A school owns everything it records. It can export its students, fees, receipts, expenses and results at any time, including during
          the {FACTS.dataKeptAfterExpiryDays} days after its subscription ends.
        </p>
      </Section>

      <Section title="9. How long we keep it">
        <ul>
          <li>While the subscription or trial is running, we keep the school&apos;s records for as long as the school keeps them.</li>
          <li>
            When a subscription expires or is cancelled, the school can still sign in, view and export its data for{' '}
            {FACTS.dataKeptAfterExpiryDays} days. After that we delete the school&apos;s records from our live systems, and from our backups
            as they rotate out.
          </li>
          <li>
            Our own billing records (invoices and payment confirmations of subscriptions) are kept for {FACTS.recordsRetainedYears} years, as
            Indian tax law requires.
          </li>
        </ul>
      </Section>

      <Section title="10. Your rights">
        <p>
          Parents and students should first contact their school, which can view, correct or remove their records directly. We help schools
          answer such requests. A school administrator can correct the school&apos;s details from Account Settings at any time, and can ask us
          for a copy of, correction of or deletion of the account.
        </p>
      </Section>

      <Section title="11. Cookies and browser storage">
        <p>
          We use your browser&apos;s storage only for what the app needs: your sign-in token, a &ldquo;remember me&rdquo; token if you ask for
          one, and your light or dark theme. We use no advertising or third-party tracking cookies. Signing out clears this storage.
        </p>
      </Section>

      <Section title="12. Changes to this policy">
        <p>
          If we change this policy in a way that affects how a school&apos;s data is handled, we will email every school administrator at least{' '}
          {FACTS.priceChangeNoticeDays} days before the change takes effect. The date at the top shows when the text last changed.
        </p>
      </Section>

      <Section title="13. Grievance officer">
        <p>
          Questions and complaints about privacy go to our grievance officer at{' '}
          <a href={`mailto:${CONTACT.email}`} className="font-medium text-primary hover:underline">{CONTACT.email}</a>
          {CONTACT.address ? <>, or by post to {CONTACT.address}</> : null}. We acknowledge every complaint within {FACTS.supportReplyHours} hours and resolve it within 15 days.
        </p>
      </Section>
    </PolicyPage>
  );
}
