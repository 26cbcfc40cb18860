/** Failures in a row of one kind of request: the log says when a streak starts and when it ends, not every failure of it. */
import type { FastifyBaseLogger } from 'fastify';

export interface StreakMessages {
  started: string;
  /** Each failure after the first, at debug level; unlogged without it. */
  again?: string;
  ended: string;
}

export class FailureStreak {
  private inARow = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    /** Fields every line carries (the provider, say). */
    private readonly fields: object,
    private readonly messages: StreakMessages,
  ) {}

  failed(details: object): void {
    this.inARow += 1;
    const line = { ...this.fields, ...details, failedInARow: this.inARow };
    if (this.inARow === 1) this.log.warn(line, this.messages.started);
    else if (this.messages.again) this.log.debug(line, this.messages.again);
  }

  succeeded(): void {
    if (this.inARow > 0) this.log.info({ ...this.fields, failedInARow: this.inARow }, this.messages.ended);
    this.inARow = 0;
  }
}
