import { classIndex, normaliseClass } from './classes';

/**
 * The examination board a school follows (issue 13, decision 0032). It decides the subject list a
 * class starts with in Results; after that the list is the school's own. CBSE and ICSE are
 * national; "State board" is a generic list for the state boards (English, the state's language,
 * Hindi, …); JKBOSE keeps the list the product first shipped with, for the schools of Jammu and
 * Kashmir it was written for.
 */
export const BOARDS = ['cbse', 'icse', 'state', 'jkbose'] as const;
export type Board = (typeof BOARDS)[number];
export const DEFAULT_BOARD: Board = 'cbse';

export const BOARD_LABELS: Record<Board, string> = {
  cbse: 'CBSE',
  icse: 'ICSE / ISC (CISCE)',
  state: 'State board',
  jkbose: 'J&K Board (JKBOSE)',
};

export const BOARD_MESSAGE = `Board must be one of ${BOARDS.map((b) => BOARD_LABELS[b]).join(', ')}`;

/** Where a class sits in school: the boards write their schemes of study per band. */
export type ClassBand = 'pre-primary' | 'primary' | 'middle' | 'secondary' | 'senior-secondary';

export function classBand(className: string): ClassBand {
  const name = normaliseClass(className);
  const i = name ? classIndex(name) : -1;
  if (i < 0) return 'primary';
  if (i <= 2) return 'pre-primary'; // Nursery, LKG, UKG
  if (i <= 7) return 'primary'; // Class 1–5
  if (i <= 10) return 'middle'; // Class 6–8
  if (i <= 12) return 'secondary'; // Class 9–10
  return 'senior-secondary'; // Class 11–12
}

/** Senior secondary streams; a class starts with the first (Science), the others are offered to pick from. */
export const STREAMS = ['Science', 'Commerce', 'Humanities'] as const;
export type Stream = (typeof STREAMS)[number];

type BandLists = Record<Exclude<ClassBand, 'senior-secondary'>, readonly string[]> & {
  'senior-secondary': Record<Stream, readonly string[]>;
};

const PRE_PRIMARY = ['English', 'Hindi', 'Numbers', 'General Awareness', 'Rhymes and Stories', 'Drawing'];

const SUBJECTS: Record<Board, BandLists> = {
  cbse: {
    'pre-primary': PRE_PRIMARY,
    primary: ['English', 'Hindi', 'Mathematics', 'Environmental Studies', 'Computer Science', 'General Knowledge', 'Art Education'],
    middle: ['English', 'Hindi', 'Sanskrit', 'Mathematics', 'Science', 'Social Science', 'Computer Science'],
    secondary: ['English', 'Hindi', 'Mathematics', 'Science', 'Social Science', 'Information Technology'],
    'senior-secondary': {
      Science: ['English', 'Physics', 'Chemistry', 'Mathematics', 'Biology', 'Physical Education'],
      Commerce: ['English', 'Accountancy', 'Business Studies', 'Economics', 'Mathematics', 'Physical Education'],
      Humanities: ['English', 'History', 'Political Science', 'Geography', 'Economics', 'Physical Education'],
    },
  },
  icse: {
    'pre-primary': PRE_PRIMARY,
    primary: ['English', 'Hindi', 'Mathematics', 'Science', 'Social Studies', 'Computer Studies', 'Art'],
    middle: ['English Language', 'English Literature', 'Hindi', 'Mathematics', 'Physics', 'Chemistry', 'Biology', 'History and Civics', 'Geography', 'Computer Applications'],
    secondary: ['English Language', 'English Literature', 'Hindi', 'Mathematics', 'Physics', 'Chemistry', 'Biology', 'History and Civics', 'Geography', 'Computer Applications'],
    'senior-secondary': {
      Science: ['English', 'Physics', 'Chemistry', 'Mathematics', 'Biology', 'Computer Science'],
      Commerce: ['English', 'Accounts', 'Commerce', 'Economics', 'Mathematics', 'Business Studies'],
      Humanities: ['English', 'History', 'Political Science', 'Geography', 'Economics', 'Sociology'],
    },
  },
  state: {
    'pre-primary': ['English', 'Regional Language', 'Numbers', 'General Awareness', 'Rhymes and Stories', 'Drawing'],
    primary: ['English', 'Regional Language', 'Hindi', 'Mathematics', 'Environmental Studies', 'General Knowledge'],
    middle: ['English', 'Regional Language', 'Hindi', 'Mathematics', 'Science', 'Social Studies', 'Computer Science'],
    secondary: ['English', 'Regional Language', 'Hindi', 'Mathematics', 'Science', 'Social Studies'],
    'senior-secondary': {
      Science: ['English', 'Regional Language', 'Physics', 'Chemistry', 'Mathematics', 'Biology'],
      Commerce: ['English', 'Regional Language', 'Accountancy', 'Business Studies', 'Economics', 'Mathematics'],
      Humanities: ['English', 'Regional Language', 'History', 'Political Science', 'Geography', 'Economics'],
    },
  },
  jkbose: {
    'pre-primary': ['English', 'Urdu', 'Mathematics', 'General Knowledge', 'Kashmiri', 'Hindi'],
    primary: ['English', 'Urdu', 'Mathematics', 'Science', 'Social Studies', 'Computer Science', 'General Knowledge', 'Islamiyat', 'Kashmiri', 'Hindi'],
    middle: ['English', 'Urdu', 'Mathematics', 'Science', 'Social Studies', 'Computer Science', 'General Knowledge', 'Islamiyat', 'Kashmiri', 'Hindi'],
    secondary: ['English', 'Urdu', 'Mathematics', 'Science', 'Social Science', 'Computer Science', 'Kashmiri', 'Hindi'],
    'senior-secondary': {
      Science: ['English', 'Physics', 'Chemistry', 'Mathematics', 'Biology', 'Physical Education'],
      Commerce: ['English', 'Accountancy', 'Business Studies', 'Economics', 'Mathematics', 'Physical Education'],
      Humanities: ['English', 'History', 'Political Science', 'Geography', 'Economics', 'Urdu'],
    },
  },
};

export function isBoard(value: unknown): value is Board {
  return typeof value === 'string' && (BOARDS as readonly string[]).includes(value);
}

/**
 * The subjects a class starts with under a board. Class 11 and 12 start with the Science stream;
 * a school of another stream renames or adds subjects (see `streamSubjects`).
 */
export function defaultSubjects(board: Board, className: string): readonly string[] {
  const band = classBand(className);
  const lists = SUBJECTS[board];
  return band === 'senior-secondary' ? lists['senior-secondary'].Science : lists[band];
}

/** A senior secondary stream's list under a board. */
export function streamSubjects(board: Board, stream: Stream): readonly string[] {
  return SUBJECTS[board]['senior-secondary'][stream];
}
