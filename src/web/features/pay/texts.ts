/**
 * Every text of the parent's payment pages (operations §2 "Payment link page"), in English and
 * Hindi side by side: a parent reads whichever they know, on a phone, without a language switch.
 * The English of operations §2, §4 and §8 is kept word for word; the Hindi stands beside it.
 */

export interface Bilingual {
  en: string;
  hi: string;
}

/** "Amount / राशि": the label form used on every field of the page. */
export const both = (text: Bilingual) => `${text.en} / ${text.hi}`;

export const PAY_LABELS = {
  school: { en: 'School', hi: 'विद्यालय' },
  student: { en: 'Student', hi: 'विद्यार्थी' },
  class: { en: 'Class', hi: 'कक्षा' },
  rollNumber: { en: 'Roll No.', hi: 'रोल नं.' },
  feeType: { en: 'Fee', hi: 'शुल्क' },
  description: { en: 'Details', hi: 'विवरण' },
  amount: { en: 'Amount', hi: 'राशि' },
  validUntil: { en: 'Valid until', hi: 'मान्य तिथि' },
  feeMonth: { en: 'Month', hi: 'माह' },
  pay: { en: 'Pay', hi: 'भुगतान करें' },
  payByUpiApp: { en: 'Pay by UPI app', hi: 'UPI ऐप से भुगतान करें' },
  scanQr: { en: 'Scan with any UPI app', hi: 'किसी भी UPI ऐप से स्कैन करें' },
  upiId: { en: 'UPI ID', hi: 'UPI आईडी' },
  upiReference: { en: 'UPI reference (UTR)', hi: 'UPI संदर्भ संख्या (UTR)' },
  payerName: { en: 'Your name (optional)', hi: 'आपका नाम (वैकल्पिक)' },
  sendReference: { en: 'Send reference to school', hi: 'संदर्भ विद्यालय को भेजें' },
  receiptNumber: { en: 'Receipt No.', hi: 'रसीद संख्या' },
  amountPaid: { en: 'Amount paid', hi: 'भुगतान की गई राशि' },
  downloadReceipt: { en: 'Download receipt', hi: 'रसीद डाउनलोड करें' },
  home: { en: 'Go to Homepage', hi: 'मुख्य पृष्ठ पर जाएँ' },
  backToLink: { en: 'Back to payment details', hi: 'भुगतान विवरण पर वापस' },
  tryAgain: { en: 'Try again', hi: 'फिर से प्रयास करें' },
} satisfies Record<string, Bilingual>;

export const PAY_TEXTS = {
  loading: { en: 'Loading payment details...', hi: 'भुगतान विवरण लोड हो रहा है...' },
  pageTitle: { en: 'Fee payment', hi: 'शुल्क भुगतान' },
  // operations §8
  errorTitle: 'Payment Link Error',
  errorFallback: 'Invalid payment link',
  fetchFailed: 'Failed to fetch payment details',
  errorToastTitle: 'Error',
  errorHi: 'यह भुगतान लिंक मान्य नहीं है।',
  // operations §4: expiry is checked first
  expiredTitle: 'Payment Link Expired',
  expiredBody: 'This payment link has expired. Please contact the school for a new payment link.',
  expiredHi: 'इस भुगतान लिंक की अवधि समाप्त हो गई है। नए लिंक के लिए विद्यालय से संपर्क करें।',
  inactiveTitle: 'Payment link inactive',
  inactiveBody: 'This payment link is no longer active.',
  inactiveHi: 'यह भुगतान लिंक अब सक्रिय नहीं है।',
  paidTitle: { en: 'This fee is paid', hi: 'इस शुल्क का भुगतान हो चुका है' },
  // operations §2: the Pay button's toast
  processingTitle: 'Payment Processing',
  processingBody: 'Redirecting to payment gateway...',
  orUpi: { en: 'or pay directly by UPI', hi: 'या सीधे UPI से भुगतान करें' },
  upiSteps: {
    en: 'After paying, type the 12-digit UPI reference (UTR) from your UPI app so the school can match your payment.',
    hi: 'भुगतान के बाद अपने UPI ऐप से 12 अंकों की UPI संदर्भ संख्या (UTR) यहाँ लिखें, ताकि विद्यालय भुगतान का मिलान कर सके।',
  },
  utrInvalid: { en: 'The UPI reference is the 12 digits shown in your UPI app after paying', hi: 'UPI संदर्भ संख्या 12 अंकों की होती है' },
  payerNameTooLong: 'Name can be at most 100 characters',
  waitingTitle: { en: 'Waiting for the school to confirm', hi: 'विद्यालय की पुष्टि की प्रतीक्षा है' },
  waitingBody: {
    en: 'The school will check your UPI reference against its bank statement and then issue the receipt.',
    hi: 'विद्यालय बैंक विवरण से आपकी UPI संदर्भ संख्या मिलाकर रसीद जारी करेगा।',
  },
  referenceFailed: 'Could not send the UPI reference',
  secure: { en: 'Secure payment · no sign-in needed', hi: 'सुरक्षित भुगतान · साइन-इन की आवश्यकता नहीं' },
  // /payment
  preparing: { en: 'Opening the payment window...', hi: 'भुगतान विंडो खुल रही है...' },
  verifying: { en: 'Confirming your payment...', hi: 'आपके भुगतान की पुष्टि हो रही है...' },
  cancelled: { en: 'Payment was not completed', hi: 'भुगतान पूरा नहीं हुआ' },
  cancelledBody: { en: 'No money was taken. You can try again.', hi: 'कोई राशि नहीं कटी। आप फिर से प्रयास कर सकते हैं।' },
  failedTitle: { en: 'Payment failed', hi: 'भुगतान विफल' },
  sandboxNotice: {
    en: 'Test payment: this school is set up for testing, so no money moves.',
    hi: 'परीक्षण भुगतान: यह विद्यालय परीक्षण के लिए है, कोई राशि नहीं कटेगी।',
  },
  noGateway: 'This school does not take card or net-banking payments online. Please pay by UPI from the payment page.',
  missingToken: 'Invalid payment link',
  // success
  successTitle: { en: 'Payment successful', hi: 'भुगतान सफल' },
  successBody: { en: 'Thank you. The school has received your payment.', hi: 'धन्यवाद। विद्यालय को आपका भुगतान मिल गया है।' },
  creditNote: (amount: string) => ({
    en: `${amount} of this payment was more than what was still due: the school keeps it as credit for the next fee, or refunds it.`,
    hi: `इस भुगतान में से ${amount} बकाया से अधिक था: विद्यालय इसे अगले शुल्क में जोड़ेगा या लौटाएगा।`,
  }),
  // the whole payment became credit: the fee had been paid at the counter meanwhile (ruling 27)
  creditOnly: (amount: string) => ({
    en: `This fee had already been paid at the school, so no new receipt was made. The school keeps your ${amount} as credit for the next fee, or refunds it.`,
    hi: `यह शुल्क विद्यालय में पहले ही जमा हो चुका था, इसलिए नई रसीद नहीं बनी। विद्यालय आपके ${amount} अगले शुल्क में जोड़ेगा या लौटाएगा।`,
  }),
  downloadFailed: 'The receipt could not be downloaded. Please try again.',
} as const;

/** Fee types as a parent reads them: the ledger's head names, plus the whole outstanding. */
export const FEE_TYPE_LABELS: Record<string, Bilingual> = {
  tuition: { en: 'Tuition Fee', hi: 'शिक्षण शुल्क' },
  bus: { en: 'Bus Fee', hi: 'बस शुल्क' },
  admission: { en: 'Yearly (Admission) Fee', hi: 'वार्षिक (प्रवेश) शुल्क' },
  exam: { en: 'Exam Fee', hi: 'परीक्षा शुल्क' },
  books: { en: 'Books Fee', hi: 'पुस्तक शुल्क' },
  uniform: { en: 'Uniform Fee', hi: 'वर्दी शुल्क' },
  misc: { en: 'Misc Fee', hi: 'विविध शुल्क' },
  previous_balance: { en: 'Previous Balance', hi: 'पिछला बकाया' },
  outstanding: { en: 'All dues', hi: 'कुल बकाया' },
};

export const feeTypeLabel = (feeType: string): Bilingual => FEE_TYPE_LABELS[feeType] ?? { en: feeType, hi: feeType };
