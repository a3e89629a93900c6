import { Injectable, Logger } from '@nestjs/common';
import { NonceGaps } from '../keys/nonce-gaps.service';
import { SettledFinality } from '../settle/settled-finality.service';
import { Expiry } from './expiry.service';
import { InFlightPass, InFlightReport } from './in-flight-pass';

export interface ReconcileReport extends InFlightReport {
  expired: number;
  gapsFilled: number;
  /** Settled rows found final at their chain's confirmation depth, and rows corrected after a reorg. */
  finalized: number;
  reorgCorrected: number;
}

/**
 * PostgreSQL is the truth, Redis only transport: every pass expires rows past their deadline
 * (`Expiry`), fills nonce gaps (`NonceGaps`), follows settled rows to finality
 * (`SettledFinality`) and makes sure every in-flight row is moving (`InFlightPass`).
 */
@Injectable()
export class ReconcilerService {
  private readonly logger = new Logger(ReconcilerService.name);

  constructor(
    private readonly expiry: Expiry,
    private readonly gaps: NonceGaps,
    private readonly finality: SettledFinality,
    private readonly inFlight: InFlightPass,
  ) {}

  async reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = { expired: 0, examined: 0, enqueued: 0, replaced: 0, settled: 0, gapsFilled: 0, finalized: 0, reorgCorrected: 0 };
    report.expired = await this.expiry.expire();
    report.gapsFilled = await this.gaps.fill();
    const finality = await this.finality.check();
    report.finalized = finality.finalized;
    report.reorgCorrected = finality.corrected;
    await this.inFlight.run(report);
    return this.logged(report);
  }

  /** `NonceGaps.fill` alone (tests, operators). */
  fillGaps(): Promise<number> {
    return this.gaps.fill();
  }

  private logged(report: ReconcileReport): ReconcileReport {
    if (report.expired || report.enqueued || report.replaced || report.settled || report.gapsFilled || report.reorgCorrected) this.logger.log(`reconciled ${JSON.stringify(report)}`);
    return report;
  }
}
