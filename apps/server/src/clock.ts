/** Time is passed in, never read from the global clock inside logic, so tests can set it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string | number) {
    this.current = new Date(start).getTime();
  }
  now() {
    return new Date(this.current);
  }
  set(to: Date | string | number) {
    this.current = new Date(to).getTime();
  }
  advance(ms: number) {
    this.current += ms;
  }
}
