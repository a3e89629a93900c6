/** Relay rows of vault orders carry labels `vault-<kind>:<quote id>`; the order listener reads no other transaction. */
export const VAULT_LABEL_PREFIX = 'vault-';

export function vaultLabel(kind: string, quoteId: string): string {
  return `${VAULT_LABEL_PREFIX}${kind}:${quoteId}`;
}
