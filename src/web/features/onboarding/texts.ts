/** Every text of the first-run guidance (platform §2 "Welcome banner and onboarding tour", §8). */
export const ONBOARDING_TEXTS = {
  welcomeTitle: 'Welcome to School Ledger! 🎉',
  welcomeBody: 'Your school is set up. Follow the checklist on the dashboard to start collecting fees, or take the short tour.',
  smallScreenTitle: 'Best on a larger screen',
  smallScreenBody: 'School Ledger is best viewed on a desktop or on a tablet in landscape. Everything works here too.',
  dismiss: 'Dismiss',
  back: 'Back',
  next: 'Next',
  finish: 'Finish',
  dontShowAgain: "Don't Show Again",
  close: 'Close tour',
  step: (n: number, m: number) => `Step ${n} of ${m}`,
  finishedTitle: 'Welcome to School Ledger!',
  finishedBody: 'You can open the tour again at any time from Help.',
  failedTitle: 'Error',
  failedBody: 'Failed to complete onboarding setup.',
} as const;

/** The five steps of the tour; `target` names the dashboard element it points at (data-tour). */
export const TOUR_STEPS = [
  {
    target: 'dashboard',
    title: 'Your dashboard',
    body: "The figures at the top show this session's students, collections and pending fees. The menu on the left opens every part of the school.",
  },
  {
    target: 'students',
    title: 'Students',
    body: 'Add students one by one or import a class from a spreadsheet. Each student gets a roll number in their class and section.',
  },
  {
    target: 'fee-structure',
    title: 'Fee Structure',
    body: "Set each class's monthly tuition and its yearly fees (admission, exam, books, uniform, misc) for the session.",
  },
  {
    target: 'monthly-fees',
    title: 'Collect fees',
    body: 'Submit Monthly Fee and Submit Yearly Fee record payments and print a numbered receipt. Student Fee Status shows what each family still owes.',
  },
  {
    target: 'reports',
    title: 'Reports and Settings',
    body: "Reports show income, expenses and dues for any period. In Settings you keep your school's details and can export all of its data.",
  },
] as const;
