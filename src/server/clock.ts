/** The one source of time on the server, so tests can move it (trial ends, token expiry). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class MovableClock implements Clock {
  private offsetMs = 0;
  constructor(private base: Date | null = null) {}
  now(): Date {
    const start = this.base ? this.base.getTime() : Date.now();
    return new Date(start + this.offsetMs);
  }
  set(date: Date): void {
    this.base = date;
    this.offsetMs = 0;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  advanceDays(days: number): void {
    this.advance(days * 86_400_000);
  }
}
