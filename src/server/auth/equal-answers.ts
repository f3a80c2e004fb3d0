/**
 * Answers that must not reveal whether an address has an account (item 7) take at least this long
 * from the moment the handler starts: the per-account work (a token row, its mail) fits well inside,
 * so a real and an unknown address answer at the same moment. Equal steps alone cannot do it: the
 * unknown address has no account to write a token for (docs/decisions/0018-equal-answers-and-recovery-links.md).
 */
export const EQUAL_ANSWER_MS = 400;
export const EQUAL_REGISTRATION_MS = 900;

export function answerFloor(ms: number): () => Promise<void> {
  const started = performance.now();
  return async () => {
    const left = started + ms - performance.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  };
}
