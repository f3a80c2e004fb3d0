/**
 * Server errors (5xx answers) counted per minute in memory, for the System tab's "errors in the last
 * hour". One per app; a restart starts from zero, which the tab says alongside the uptime.
 */
export class ServerErrorCounter {
  private readonly buckets = new Map<number, number>();
  constructor(private readonly keepMinutes = 60) {}

  record(now: Date): void {
    const minute = Math.floor(now.getTime() / 60_000);
    this.buckets.set(minute, (this.buckets.get(minute) ?? 0) + 1);
    for (const key of this.buckets.keys()) if (key <= minute - this.keepMinutes) this.buckets.delete(key);
  }

  /** 5xx answers in the `keepMinutes` minutes up to `now` (the current minute included). */
  lastHour(now: Date): number {
    const minute = Math.floor(now.getTime() / 60_000);
    let total = 0;
    for (const [key, n] of this.buckets) if (key > minute - this.keepMinutes && key <= minute) total += n;
    return total;
  }
}
