import { indiaDate } from '../../domain/sessions';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { Periodic } from '../lib/periodic';
import { buildStalePositions, type MonthBuild } from './student-positions';

/** How often the keeper looks for schools to build: a new month is built within a minute of midnight. */
export const POSITIONS_KEEPER_INTERVAL_MS = 60_000;

/**
 * Builds every school's whole-school rows for a new month (and after a change to a school's sessions)
 * in the background, so the first clerk of the month does not wait for a build of the school inside
 * their request, nor do the saves that wait on the marks such a build clears (decision 0071).
 *
 * Every app process runs one; a school is built once across them, since a keeper passes over a school
 * whose lock another keeper or a reader holds, and finds it up to date at its next look. A reader
 * that comes first still builds the school itself: the rows are never stale.
 */
export class PositionsKeeper {
  private readonly job: Periodic<MonthBuild>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void },
    intervalMs = POSITIONS_KEEPER_INTERVAL_MS,
  ) {
    // a first look at once (a server started on the 1st), then one a minute
    this.job = new Periodic({
      everyMs: intervalMs,
      firstAfterMs: 0,
      look: (stopping) => this.look(stopping),
      onError: (err) => this.log.error({ err }, 'the month’s positions could not be built'),
    });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** One look; a look while the last is still building waits for it instead of starting another. */
  runOnce(): Promise<MonthBuild> {
    return this.job.runOnce();
  }

  private async look(stopping: () => boolean): Promise<MonthBuild> {
    const began = performance.now();
    const month = indiaDate(this.clock.now()).slice(0, 7);
    const result = await buildStalePositions(this.db, month, stopping);
    if (result.built.length > 0) this.log.info({ month, built: result.built.length, busy: result.busy.length, ms: Math.round(performance.now() - began) }, 'whole-school positions built for the month');
    return result;
  }
}
