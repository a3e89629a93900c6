import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Derived senders per account (docs/decisions.md, "Derived senders per account"). Before, a
 * derivation path named one key for every account; now each account has its own keys. Rows
 * recorded under the old derivation keep it (`derivation_scheme = 'legacy'`): a transaction in
 * flight finishes, is resent, replaced or cancelled from the address it was accepted for, and
 * its nonce counter (signer_nonces, by address) stays that address's. `legacy_derivation_paths`
 * records which account used which path before, so an account whose operator turns on
 * `accounts.legacy_derivation` can move what its own old addresses hold, and no other's.
 */
export class DerivedSendersPerAccount1795742371560 implements MigrationInterface {
  name = 'DerivedSendersPerAccount1795742371560';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions ADD COLUMN derivation_scheme varchar(8)`);
    await q.query(`UPDATE relay_transactions SET derivation_scheme = 'legacy' WHERE derivation_path IS NOT NULL`);
    await q.query(`ALTER TABLE relay_transactions ADD CONSTRAINT relay_transactions_derivation_scheme_check
                   CHECK ((derivation_path IS NULL) = (derivation_scheme IS NULL) AND coalesce(derivation_scheme, 'account') IN ('account', 'legacy'))`);
    await q.query(`CREATE TABLE legacy_derivation_paths (
        user_id uuid NOT NULL REFERENCES accounts(id),
        derivation_path varchar(128) NOT NULL,
        address varchar(42),
        first_used_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, derivation_path)
      )`);
    await q.query(`CREATE INDEX legacy_derivation_paths_path_idx ON legacy_derivation_paths (derivation_path)`);
    await q.query(`INSERT INTO legacy_derivation_paths (user_id, derivation_path, address, first_used_at)
                   SELECT user_id, derivation_path, max(sender), min(created_at) FROM relay_transactions
                    WHERE derivation_path IS NOT NULL GROUP BY user_id, derivation_path`);
    await q.query(`ALTER TABLE accounts ADD COLUMN legacy_derivation boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The code before signs every derived row with the path's global key: a PENDING row of an
    // account key would be re-signed from an address it does not name, at a nonce of another counter.
    const [pending] = await q.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE derivation_scheme = 'account' AND status = 'PENDING'`);
    if (pending.n > 0) throw new Error(`${pending.n} PENDING transactions of per-account derived senders: let them finish (or fail them) before reverting DerivedSendersPerAccount`);
    await q.query(`ALTER TABLE accounts DROP COLUMN legacy_derivation`);
    await q.query(`DROP TABLE legacy_derivation_paths`);
    await q.query(`ALTER TABLE relay_transactions DROP CONSTRAINT relay_transactions_derivation_scheme_check`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN derivation_scheme`);
  }
}
