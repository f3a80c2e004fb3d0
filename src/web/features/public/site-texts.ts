/**
 * Texts of the landing and pricing pages (issue 12 item 7). Every line describes something the
 * product does today; a new claim belongs here only once the feature behind it is built.
 */
export const SITE_TEXTS = {
  nav: { pricing: 'Pricing', contact: 'Contact', signIn: 'Sign in', startTrial: 'Start free trial' },
  hero: {
    title: 'Fees, receipts and accounts for Indian schools',
    body:
      'School Ledger runs the money side of a school: students and their classes, monthly and yearly fees, numbered receipts, dues that follow a student from session to session, expenses, reports and exam results.',
    trial: (days: number) => `${days}-day free trial, no card needed.`,
    seePricing: 'See pricing',
  },
  featuresTitle: 'What it does',
  features: [
    {
      title: 'Collect fees at the counter',
      body: 'Record monthly tuition and bus fees on a grid, and yearly fees on cards. A fee that is already paid cannot be paid twice.',
    },
    {
      title: 'Numbered receipts',
      body: 'Every payment gets a receipt with a gapless number for its session, to print or save as PDF. A cancelled receipt keeps its number and the reason.',
    },
    {
      title: 'Dues that carry over',
      body: "Student Fee Status shows what each family owes. When a new session starts, unpaid dues are carried into it and stay collectable.",
    },
    {
      title: 'Students and classes',
      body: 'Add students one by one or import a class from a spreadsheet; roll numbers are given per class and section, and promotion is its own step.',
    },
    {
      title: 'Expenses and reports',
      body: 'Keep expenses by category and see income, expenses and net figures for any period, with downloads in Excel and CSV.',
    },
    {
      title: 'Results and marksheets',
      body: "Enter marks by class and subject, with grades worked out for you, and print each student's marksheet.",
    },
    {
      title: 'Your data stays yours',
      body: "Each school's records are kept apart. Aadhaar numbers are encrypted and shown masked, and a school can export all of its data at any time.",
    },
    {
      title: 'Pay by UPI, card or net banking',
      body: 'Subscriptions are paid online through Razorpay. Prices exclude GST, which is shown before you pay.',
    },
  ],
  screenshotsTitle: 'A look inside',
  screenshots: [
    { file: 'dashboard', caption: "The dashboard: this session's students, collections and pending fees at a glance." },
    { file: 'monthly-fees', caption: 'Submit Monthly Fee: a month per row, tuition and bus, then save and print the receipt.' },
    { file: 'fee-status', caption: 'Student Fee Status: paid and pending months, yearly fees and what is still owed.' },
  ],
  screenshotAlt: (caption: string) => `Screenshot of School Ledger. ${caption}`,
  pricingTitle: 'Simple pricing',
  pricingBody: 'Every plan has every feature; plans differ only in how many students they hold.',
  fullPricing: 'Compare plans',
  closingTitle: 'Try it with your own school',
  closingBody: (days: number) => `Register, confirm your email address and your ${days}-day trial starts. When it ends you can still sign in, see and export your data, and choose a plan.`,
  pricing: {
    title: 'Pricing',
    body: 'One product, three sizes. Choose by the number of students in your school.',
    monthly: 'Monthly',
    yearly: 'Yearly',
    perMonth: '/month',
    perYear: '/year',
    gst: (gst: number, discount: number) => `Prices exclude ${gst}% GST, which is added at checkout. Your first paid subscription is ${discount}% off.`,
    mostPopular: 'MOST POPULAR',
    everyPlan: 'Every plan includes',
    start: 'Start free trial',
    loadFailed: 'The plans could not be loaded. Please refresh the page.',
    questions: 'Questions about plans, payments or refunds?',
    contact: 'Contact us',
    refunds: 'Refund Policy',
  },
} as const;
