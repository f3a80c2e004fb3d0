import { formatDateIN } from '../../domain/dates';

/** What the server says about starting a session, in one place (a translation adds a file). */
export const startTexts = {
  noRunning: 'There is no running session to start from. Create one under Session Management first.',
  alreadyStarted: (name: string) => `${name} has already been started.`,
  notStarted: (name: string) => `${name} was not started from another session: there is nothing to undo.`,
  notLater: (name: string, running: string) => `${name} does not start after ${running}: only a later session can be started.`,
  tooEarly: (name: string, running: string, opensOn: string) =>
    `${name} can be started from ${formatDateIN(opensOn)}, the last month of ${running}. To start it earlier, confirm the early start.`,
  started: (name: string, promoted: number, graduated: number) =>
    `${name} has started: ${promoted} ${promoted === 1 ? 'student' : 'students'} moved up, ${graduated} passed out.`,
  undone: (running: string, restored: number) => `The start was undone: ${restored} ${restored === 1 ? 'student is' : 'students are'} back in ${running}.`,
};
