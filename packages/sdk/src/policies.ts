import { data, type ApiClient } from './http';
import type { Policy, PolicyInput, PolicyUsage } from './types';

/**
 * Sponsorship policies (extensions.md): which submissions the account sponsors, for whom, up
 * to what budget and per-end-user limits, and under which gas price. With no enabled policy
 * the account sponsors everything within its limits; otherwise a submission no policy allows
 * is refused with RelayApiError 403 TRANSACTION_010, the reason first in its message
 * (`no_policy_matches`, `end_user_denied`, `outside_window`, `budget_exhausted`, `end_user_limit`).
 */
export class PoliciesApi {
  constructor(private readonly api: ApiClient) {}

  /** POST /api/policies. */
  create(policy: PolicyInput & { name: string }): Promise<Policy> {
    return data(this.api.POST('/api/policies', { body: policy }));
  }

  /** GET /api/policies: in the order they are evaluated (oldest first). */
  list(): Promise<Policy[]> {
    return data(this.api.GET('/api/policies'));
  }

  /** GET /api/policies/{id}. */
  get(id: string): Promise<Policy> {
    return data(this.api.GET('/api/policies/{id}', { params: { path: { id } } }));
  }

  /** PATCH /api/policies/{id}: fields left out stay, null clears. */
  update(id: string, patch: PolicyInput): Promise<Policy> {
    return data(this.api.PATCH('/api/policies/{id}', { params: { path: { id } }, body: patch }));
  }

  /** DELETE /api/policies/{id}. */
  async remove(id: string): Promise<void> {
    await data(this.api.DELETE('/api/policies/{id}', { params: { path: { id } } }));
  }

  /** GET /api/policies/{id}/usage: spent, reserved, count, and each end user's current window. */
  usage(id: string): Promise<PolicyUsage> {
    return data(this.api.GET('/api/policies/{id}/usage', { params: { path: { id } } }));
  }
}
