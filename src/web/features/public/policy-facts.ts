/**
 * The numbers and contact details the public pages promise (operations §9), in one place so the
 * contact page, the policies and the FAQ can never disagree. Contact details can be set per
 * deployment with VITE_SUPPORT_EMAIL, VITE_SUPPORT_PHONE and VITE_BUSINESS_ADDRESS at build time.
 */
export const FACTS = {
  trialDays: 5,
  refundWindowDays: 30,
  refundProcessing: '5-7 business days',
  refundByMethod: [
    { method: 'Credit and debit cards', time: '5-7 business days' },
    { method: 'UPI and wallets', time: '1-3 business days' },
    { method: 'Net banking', time: '3-5 business days' },
  ],
  dataKeptAfterExpiryDays: 30,
  uptimePercent: '99.9%',
  maintenanceNoticeHours: 48,
  outageRefundHours: 48,
  priceChangeNoticeDays: 30,
  recordsRetainedYears: 7,
  supportReplyHours: 24,
  criticalReplyHours: 4,
  supportHours: 'Monday to Friday, 9:00 AM to 6:00 PM IST',
  supportHoursShort: 'Mon-Fri 9:00 AM-6:00 PM IST',
  gstPercent: 18,
  firstSubscriptionDiscountPercent: 50,
} as const;

const env = import.meta.env as Record<string, string | undefined>;

const configured = (value: string | undefined) => (value?.trim() ? value.trim() : null);

/**
 * Contact details come only from the deployment's configuration (issue 12 item 7): a phone number or
 * an address that was not set is not shown, never made up. The email falls back to the product's
 * support address, which the policies need to name.
 */
export const CONTACT = {
  company: 'School Ledger',
  email: configured(env.VITE_SUPPORT_EMAIL) ?? 'support@schoolledger.in',
  phone: configured(env.VITE_SUPPORT_PHONE),
  address: configured(env.VITE_BUSINESS_ADDRESS),
  jurisdiction: 'Srinagar, Jammu and Kashmir',
} as const;

/**
 * The date each policy's text last changed (ruling 17). Change a date only together with the
 * text of that policy: it tells schools when the promises they rely on were last revised.
 */
export const LAST_UPDATED = {
  privacy: '2026-11-22',
  terms: '2026-11-22',
  refunds: '2026-11-22',
  shipping: '2026-11-22',
} as const;
