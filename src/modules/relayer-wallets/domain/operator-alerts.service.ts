import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';

export type OperatorAlertKind = 'relayer.low_balance' | 'relayer.top_up_sent' | 'relayer.top_up_mined' | 'relayer.top_up_failed' | 'relayer.treasury_short' | 'relayer.pool_empty';

export interface OperatorAlert {
  kind: OperatorAlertKind;
  chainId: number;
  address?: string;
  region?: string;
  balanceWei?: string;
  floorWei?: string;
  amountWei?: string;
  hash?: string;
  detail?: string;
}

const POST_TIMEOUT_MS = 5_000;

/**
 * What an operator must hear about the relayer wallets: one structured log line per alert
 * (`msg: operator_alert` and the alert's fields, for log-based alerting) and, when OPERATOR_WEBHOOK_URL is set, a
 * best-effort JSON POST. Never throws: an alert must not stop the work that raised it.
 */
@Injectable()
export class OperatorAlerts {
  private readonly logger = new Logger('OperatorAlert');

  constructor(private readonly config: AppConfig) {}

  async raise(alert: OperatorAlert): Promise<void> {
    const body = { ...alert, at: new Date().toISOString() };
    // Fields, not a JSON string: a log shipper alerts on `msg: operator_alert` and `kind` as they are.
    this.logger.warn({ msg: 'operator_alert', ...body });
    const url = this.config.OPERATOR_WEBHOOK_URL;
    if (!url) return;
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(POST_TIMEOUT_MS) });
      if (!res.ok) this.logger.warn(`operator webhook answered ${res.status}`);
    } catch (err) {
      this.logger.warn(`operator webhook failed: ${(err as Error).message}`);
    }
  }
}
