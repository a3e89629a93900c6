import { toRelayApiError, RelayApiError } from './errors';
import { data, type ApiClient, type Credentials } from './http';
import type { ChargeAudit, Funding, FundingDepositList } from './types';

/** `from` / `to` of an account statement (ISO 8601 or Date; at most 31 days apart; default the last 31 days). */
export interface StatementRange {
  from?: string | Date;
  to?: string | Date;
}

const iso = (v: string | Date | undefined) => (v instanceof Date ? v.toISOString() : v);

/** Self-serve funding and proof of charge (api-key or wallet-login JWT; always the caller's own account). */
export class FundingApi {
  constructor(
    private readonly api: ApiClient,
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** GET /api/funding: the account's deposit address (the same on every chain) and what each chain accepts. */
  funding(): Promise<Funding> {
    return data(this.api.GET('/api/funding'));
  }

  /** GET /api/deposits: seen and credited deposits, newest first; pass `nextCursor` as `cursor` for the next page. */
  deposits(query: { limit?: number; cursor?: string } = {}): Promise<FundingDepositList> {
    return data(this.api.GET('/api/deposits', { params: { query } }));
  }

  /** GET /api/audit: each settled transaction recomputed from the chain, with the price it was charged at. */
  audit(range: StatementRange = {}): Promise<ChargeAudit> {
    return data(this.api.GET('/api/audit', { params: { query: { from: iso(range.from), to: iso(range.to) } } }));
  }

  /** GET /api/ledger.csv: the ledger as CSV text (`time,kind,reference,amountUsd,balanceAfterUsd`). */
  async ledgerCsv(range: StatementRange = {}): Promise<string> {
    const url = new URL(`${this.baseUrl.replace(/\/+$/, '')}/api/ledger.csv`);
    for (const [key, value] of Object.entries({ from: iso(range.from), to: iso(range.to) })) if (value) url.searchParams.set(key, value);
    const headers: Record<string, string> = {};
    if (this.credentials.apiKey) headers['api-key'] = this.credentials.apiKey;
    if (this.credentials.jwt) headers.authorization = `Bearer ${this.credentials.jwt}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers });
    } catch (err) {
      throw new RelayApiError(`request failed: ${err instanceof Error ? err.message : String(err)}`, 0, undefined, undefined, undefined);
    }
    if (response.ok) return response.text();
    throw toRelayApiError(response, await response.json().catch(() => undefined));
  }
}
