import { carryThroughMonth, promotionOpensOn } from '../../domain/sessions';
import type { Db } from '../db/client';
import { badRequest, conflict } from '../lib/errors';
import { lockSchoolLedger } from '../fees/locks';
import { findRollover, previewRollover, rollOverSchool, undoBlocker, undoRollover, type Actor, type RolloverSummary } from '../fees/rollover';
import { activateSession, findActiveSession, lockSessions, type SessionRow } from './queries';
import { startTexts } from './texts';

/**
 * Starting the next session (issue 11): promotion as its own step, never a side effect of creating
 * a session. The running (active) session's students move one class up into `to`, Class 12 passes
 * out, the dues of months already due are carried, and `to` becomes the active session — all in one
 * transaction, and undoable until the new session's first receipt.
 */

export interface StartCheck {
  running: SessionRow;
  throughMonth: string;
  opensOn: string;
  /** the running session's last month has come */
  open: boolean;
}

/** Whether `to` can be started now (or early), and what it would carry; throws the reason when it cannot. */
export async function checkStart(db: Db, { schoolId, to, today }: { schoolId: string; to: SessionRow; today: string }): Promise<StartCheck> {
  const running = await findActiveSession(db, { schoolId });
  if (!running) throw badRequest(startTexts.noRunning);
  if (to.isPromotionCompleted || running.id === to.id) throw conflict(startTexts.alreadyStarted(to.name));
  if (to.startDate <= running.startDate) throw conflict(startTexts.notLater(to.name, running.name));
  const opensOn = promotionOpensOn(running.endDate);
  return { running, throughMonth: carryThroughMonth(running.endDate, today), opensOn, open: today >= opensOn };
}

export async function startPreview(db: Db, { schoolId, to, today }: { schoolId: string; to: SessionRow; today: string }) {
  const check = await checkStart(db, { schoolId, to, today });
  const rows = await previewRollover(db, { schoolId, from: check.running, throughMonth: check.throughMonth });
  return { ...check, rows };
}

export async function startSession(
  tx: Db,
  { schoolId, to, today, early, actor }: { schoolId: string; to: SessionRow; today: string; early: boolean; actor: Actor },
): Promise<{ session: SessionRow; summary: RolloverSummary; from: SessionRow }> {
  await lockSessions(tx, schoolId);
  const check = await checkStart(tx, { schoolId, to, today });
  if (!check.open && !early) throw conflict(startTexts.tooEarly(to.name, check.running.name, check.opensOn));
  const summary = await rollOverSchool(tx, { schoolId, from: check.running, to, throughMonth: check.throughMonth, actor });
  const session = await activateSession(tx, { schoolId, id: to.id, starting: true });
  return { session: session!, summary, from: check.running };
}

export async function undoStart(
  tx: Db,
  { schoolId, to, actor }: { schoolId: string; to: SessionRow; actor: Actor },
): Promise<{ session: SessionRow; restored: number }> {
  await lockSessions(tx, schoolId);
  // what blocks an undo (a receipt, an admission, a discharge) is written under the ledger lock
  // shared: read it holding the lock exclusively, so one in flight commits first and is found, and
  // none lands between this check and the undo (the lock `undoRollover` takes again)
  await lockSchoolLedger(tx, { schoolId });
  const rollover = await findRollover(tx, { schoolId, toSessionId: to.id });
  if (!rollover) throw conflict(startTexts.notStarted(to.name));
  const blocker = await undoBlocker(tx, { schoolId, rollover, toName: to.name });
  if (blocker) throw conflict(blocker);
  const { restored } = await undoRollover(tx, { schoolId, rollover, actor });
  const session = await activateSession(tx, { schoolId, id: rollover.fromSessionId, starting: true });
  return { session: session!, restored };
}

/** Whether the start into `to` can still be undone (for the session list). */
export async function canUndoStart(db: Db, { schoolId, to }: { schoolId: string; to: SessionRow }): Promise<boolean> {
  if (!to.isPromotionCompleted) return false;
  const rollover = await findRollover(db, { schoolId, toSessionId: to.id });
  return Boolean(rollover && !(await undoBlocker(db, { schoolId, rollover, toName: to.name })));
}
