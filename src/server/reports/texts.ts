/**
 * The words the reports share, so every report names the same money the same way (issue item 10:
 * every report with Due, Received and Outstanding also shows the Concession, and the money it does
 * not count against its dues has its own line).
 */
export const RECONCILE = {
  due: 'Due',
  dueTillDate: 'Due till date',
  concession: 'Concession',
  received: 'Received',
  outstanding: 'Outstanding',
  receivedAgainstDues: 'Received against dues',
  advance: 'Received in advance',
  other: 'Other fees',
  arrears: 'Arrears collected',
  totalReceived: 'Total received',
  toCome: 'Still to come',
  /** the line under the yearly heads with the approved concessions on them (issue 16) */
  yearlyConcessions: 'Concessions on yearly fees',
  /** the line that takes off the parts of yearly fees an instalment plan has not yet made due (decision 0048) */
  yearlyNotYetDue: 'Parts not yet due (instalment plans)',
} as const;

/** What a report document's request is answered when its build cannot finish (decision 0042). */
export const BUILD = {
  /** PostgreSQL ended a statement of the build (its statement timeout, or an operator) */
  tooLong: 'This report took too long to prepare and was stopped. Please try again in a few minutes.',
  /** the client closed the request before the report was ready: nobody reads this answer */
  clientGone: 'The request was closed before the report was ready.',
} as const;
