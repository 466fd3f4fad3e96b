// Owns the clock the store reads: injected, so tests fix the time; its own
// module, so that what imports it loads nothing else.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
