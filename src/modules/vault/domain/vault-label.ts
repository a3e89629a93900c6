/** Relay rows of vault orders carry labels `vault-<kind>:<quote id>`, so a client's transaction list says what each one was. */
export function vaultLabel(kind: string, quoteId: string): string {
  return `vault-${kind}:${quoteId}`;
}
