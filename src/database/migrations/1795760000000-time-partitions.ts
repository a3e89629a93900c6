import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables that grow with traffic become range partitioned by month (docs/decisions.md,
 * "Time partitions"): relay_transactions, relay_broadcasts, tx_status_events and ledger_entries
 * by `created_at`, webhook_deliveries by its event's `created_at` (new column
 * `event_created_at`). Each gets a partition per month from its oldest row (at most 24 months back) to next month
 * and a DEFAULT partition (older rows, and a row outside every month is kept, never refused); PartitionMaintenance
 * creates the months ahead from then on.
 *
 * PostgreSQL wants the partition key in every primary key and unique constraint of a
 * partitioned table, so each constraint that was not already time-bound keeps its guarantee
 * another way, without a change to the code that relies on it:
 * - primary keys become (id, created_at); ids stay unique (uuid / one sequence);
 * - relay_transactions(id), referenced by broadcasts, status events, vault orders and gasless
 *   swaps: `relay_transaction_ids` (id PRIMARY KEY), filled by a trigger, takes the foreign keys;
 * - relay_broadcasts.hash UNIQUE: `relay_broadcast_hashes` (hash PRIMARY KEY, the constraint
 *   named `relay_broadcasts_hash_key` as before, so signed resubmission still recognises it),
 *   kept by triggers on insert and delete;
 * - ledger_entries (kind, reference) partial UNIQUE: `ledger_entry_references`, the constraint
 *   named `ledger_entries_kind_reference_uq` as before, kept by triggers on insert, update, delete;
 * - webhook_deliveries (webhook_id, event_id) UNIQUE, an ON CONFLICT target: (webhook_id,
 *   event_id, event_created_at), the same set of rows since an event has one created_at;
 *   its foreign key to the events becomes (event_id, event_created_at).
 *
 * Indexes, CHECK constraints, defaults and other foreign keys are carried over from the live
 * tables, whatever earlier migrations made of them. down() restores plain tables with their rows.
 */
export class TimePartitions1795760000000 implements MigrationInterface {
  name = 'TimePartitions1795760000000';

  async up(q: QueryRunner): Promise<void> {
    // Referencing FKs go first: they point at the plain tables about to be replaced.
    await q.query(`CREATE TABLE relay_transaction_ids (id uuid PRIMARY KEY, created_at timestamptz NOT NULL)`);
    await q.query(`INSERT INTO relay_transaction_ids (id, created_at) SELECT id, created_at FROM relay_transactions`);
    await retargetForeignKeys(q, 'relay_transactions', 'relay_transaction_ids');

    // Foreign keys among them come off first and go back once every table is rebuilt.
    const fks = await foreignKeysOf(q);
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const t of TABLES) {
      const indexes = await plainIndexes(q, t.name);
      const seq = await ownedSequence(q, t.name);
      const eventTime = t.name === 'webhook_deliveries' ? ', event_created_at timestamptz NOT NULL' : '';
      await q.query(`CREATE TABLE ${t.name}__new (LIKE ${t.name} INCLUDING DEFAULTS INCLUDING CONSTRAINTS${eventTime}) PARTITION BY RANGE (${t.key})`);
      if (t.name === 'webhook_deliveries') {
        await createMonths(q, `${t.name}__new`, t.name, `(SELECT min(e.created_at) FROM webhook_deliveries d JOIN tx_status_events e ON e.id = d.event_id)`);
        await q.query(`INSERT INTO webhook_deliveries__new SELECT d.*, e.created_at FROM webhook_deliveries d JOIN tx_status_events e ON e.id = d.event_id`);
      } else {
        await createMonths(q, `${t.name}__new`, t.name, `(SELECT min(${t.key}) FROM ${t.name})`);
        await q.query(`INSERT INTO ${t.name}__new SELECT * FROM ${t.name}`);
      }
      if (seq) await q.query(`ALTER SEQUENCE ${seq} OWNED BY NONE`);
      await q.query(`DROP TABLE ${t.name}`);
      await q.query(`ALTER TABLE ${t.name}__new RENAME TO ${t.name}`);
      if (seq) await q.query(`ALTER SEQUENCE ${seq} OWNED BY ${t.name}.id`);
      await q.query(`ALTER TABLE ${t.name} ADD CONSTRAINT ${t.name}_pkey PRIMARY KEY (id, ${t.key})`);
      for (const def of indexes) await q.query(def);
    }
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} ${partitionedForeignKey(fk.def)}`);

    await q.query(`CREATE FUNCTION relay_transaction_ids_record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO relay_transaction_ids (id, created_at) VALUES (NEW.id, NEW.created_at);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER relay_transactions_ids AFTER INSERT ON relay_transactions FOR EACH ROW EXECUTE FUNCTION relay_transaction_ids_record()`);

    await q.query(`CREATE TABLE relay_broadcast_hashes (
      hash varchar(66) CONSTRAINT relay_broadcasts_hash_key PRIMARY KEY,
      tx_id uuid NOT NULL REFERENCES relay_transaction_ids(id) ON DELETE CASCADE
    )`);
    await q.query(`INSERT INTO relay_broadcast_hashes (hash, tx_id) SELECT hash, tx_id FROM relay_broadcasts`);
    await q.query(`CREATE FUNCTION relay_broadcast_hashes_keep() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN DELETE FROM relay_broadcast_hashes WHERE hash = OLD.hash; END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN INSERT INTO relay_broadcast_hashes (hash, tx_id) VALUES (NEW.hash, NEW.tx_id); END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER relay_broadcasts_hashes AFTER INSERT OR DELETE OR UPDATE OF hash ON relay_broadcasts FOR EACH ROW EXECUTE FUNCTION relay_broadcast_hashes_keep()`);

    await q.query(`CREATE TABLE ledger_entry_references (
      kind varchar(16) NOT NULL,
      reference varchar(120) NOT NULL,
      CONSTRAINT ledger_entries_kind_reference_uq PRIMARY KEY (kind, reference)
    )`);
    await q.query(`INSERT INTO ledger_entry_references (kind, reference) SELECT kind, reference FROM ledger_entries WHERE ${LEDGER_UNIQUE_WHERE}`);
    await q.query(`CREATE FUNCTION ledger_entry_references_keep() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.reference IS NOT NULL AND OLD.kind NOT IN ('adjust', 'raise') THEN
          DELETE FROM ledger_entry_references WHERE kind = OLD.kind AND reference = OLD.reference;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.reference IS NOT NULL AND NEW.kind NOT IN ('adjust', 'raise') THEN
          INSERT INTO ledger_entry_references (kind, reference) VALUES (NEW.kind, NEW.reference);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER ledger_entries_references AFTER INSERT OR DELETE OR UPDATE OF kind, reference ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_entry_references_keep()`);

    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_event_id_key UNIQUE (webhook_id, event_id, event_created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER ledger_entries_references ON ledger_entries`);
    await q.query(`DROP FUNCTION ledger_entry_references_keep()`);
    await q.query(`DROP TABLE ledger_entry_references`);
    await q.query(`DROP TRIGGER relay_broadcasts_hashes ON relay_broadcasts`);
    await q.query(`DROP FUNCTION relay_broadcast_hashes_keep()`);
    await q.query(`DROP TABLE relay_broadcast_hashes`);
    await q.query(`DROP TRIGGER relay_transactions_ids ON relay_transactions`);
    await q.query(`DROP FUNCTION relay_transaction_ids_record()`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_event_id_key`);

    const fks = await foreignKeysOf(q);
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    for (const t of TABLES) {
      const indexes = await plainIndexes(q, t.name);
      const seq = await ownedSequence(q, t.name);
      await q.query(`CREATE TABLE ${t.name}__plain (LIKE ${t.name} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      if (t.name === 'webhook_deliveries') await q.query(`ALTER TABLE webhook_deliveries__plain DROP COLUMN event_created_at`);
      const [{ columns }] = await q.query(`SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) AS columns FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, [`${t.name}__plain`]);
      await q.query(`INSERT INTO ${t.name}__plain (${columns}) SELECT ${columns} FROM ${t.name}`);
      if (seq) await q.query(`ALTER SEQUENCE ${seq} OWNED BY NONE`);
      await q.query(`DROP TABLE ${t.name}`);
      await q.query(`ALTER TABLE ${t.name}__plain RENAME TO ${t.name}`);
      if (seq) await q.query(`ALTER SEQUENCE ${seq} OWNED BY ${t.name}.id`);
      await q.query(`ALTER TABLE ${t.name} ADD CONSTRAINT ${t.name}_pkey PRIMARY KEY (id)`);
      for (const def of indexes) await q.query(def);
    }
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_event_id_key UNIQUE (webhook_id, event_id)`);
    await q.query(`ALTER TABLE relay_broadcasts ADD CONSTRAINT relay_broadcasts_hash_key UNIQUE (hash)`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_kind_reference_uq ON ledger_entries (kind, reference) WHERE ${LEDGER_UNIQUE_WHERE}`);
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} ${plainForeignKey(fk.def)}`);
    await retargetForeignKeys(q, 'relay_transaction_ids', 'relay_transactions');
    await q.query(`DROP TABLE relay_transaction_ids`);
  }
}

/** Parents before children: a child's foreign keys are re-added once its parent is partitioned. */
const TABLES = [
  { name: 'relay_transactions', key: 'created_at' },
  { name: 'relay_broadcasts', key: 'created_at' },
  { name: 'tx_status_events', key: 'created_at' },
  { name: 'webhook_deliveries', key: 'event_created_at' },
  { name: 'ledger_entries', key: 'created_at' },
] as const;

/** The predicate of the ledger's (kind, reference) uniqueness (migration FeeRaiseReservations). */
const LEDGER_UNIQUE_WHERE = `reference IS NOT NULL AND kind NOT IN ('adjust', 'raise')`;

/** Non-unique indexes of `table`, as statements that recreate them on whatever table bears its name then. */
async function plainIndexes(q: QueryRunner, table: string): Promise<string[]> {
  const rows: Array<{ def: string }> = await q.query(
    `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i WHERE i.indrelid = $1::regclass AND NOT i.indisunique AND NOT i.indisprimary ORDER BY i.indexrelid`,
    [table],
  );
  return rows.map((r) => r.def.replace(' ON ONLY ', ' ON '));
}

/** Foreign keys from the five tables (to anything), and from anything to them; once each. */
async function foreignKeysOf(q: QueryRunner): Promise<Array<{ table: string; name: string; def: string }>> {
  const names = TABLES.map((t) => t.name);
  return q.query(
    `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE contype = 'f' AND conparentid = 0 AND (conrelid::regclass::text = ANY($1) OR confrelid::regclass::text = ANY($1)) ORDER BY oid`,
    [names],
  );
}

async function ownedSequence(q: QueryRunner, table: string): Promise<string | null> {
  const [row] = await q.query(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [table]);
  return (row?.seq as string | null) ?? null;
}

/** Foreign keys of other tables at `from(id)` point at `to(id)` instead (same names, same actions). */
async function retargetForeignKeys(q: QueryRunner, from: string, to: string): Promise<void> {
  const rows: Array<{ table: string; name: string; def: string }> = await q.query(
    `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'f' AND confrelid = $1::regclass AND conparentid = 0`,
    [from],
  );
  for (const fk of rows) {
    await q.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name}`);
    await q.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${fk.name} ${fk.def.replace(`REFERENCES ${from}(id)`, `REFERENCES ${to}(id)`)}`);
  }
}

/** A carried-over foreign key, for the partitioned tables: transactions via their id table, events with their time. */
function partitionedForeignKey(def: string): string {
  return def.replace('REFERENCES relay_transactions(id)', 'REFERENCES relay_transaction_ids(id)').replace('FOREIGN KEY (event_id) REFERENCES tx_status_events(id)', 'FOREIGN KEY (event_id, event_created_at) REFERENCES tx_status_events(id, created_at)');
}

function plainForeignKey(def: string): string {
  return def.replace('REFERENCES relay_transaction_ids(id)', 'REFERENCES relay_transactions(id)').replace('FOREIGN KEY (event_id, event_created_at) REFERENCES tx_status_events(id, created_at)', 'FOREIGN KEY (event_id) REFERENCES tx_status_events(id)');
}

/**
 * Monthly partitions `<name>_pYYYYMM` of `parent` from the month of `oldest` (SQL, may be NULL;
 * at most 24 months back) to next month, and `<name>_default`, which holds whatever is older.
 */
async function createMonths(q: QueryRunner, parent: string, name: string, oldest: string): Promise<void> {
  const months: Array<{ start: string; end: string; suffix: string }> = await q.query(`
    SELECT to_char(m, 'YYYY-MM-DD') AS start, to_char(m + interval '1 month', 'YYYY-MM-DD') AS end, to_char(m, 'YYYYMM') AS suffix
      FROM generate_series(date_trunc('month', GREATEST(LEAST(COALESCE(${oldest}, now()), now()), now() - interval '24 months') AT TIME ZONE 'UTC'),
                           date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month', interval '1 month') AS m`);
  for (const m of months) {
    await q.query(`CREATE TABLE ${name}_p${m.suffix} PARTITION OF ${parent} FOR VALUES FROM ('${m.start} 00:00:00+00') TO ('${m.end} 00:00:00+00')`);
  }
  await q.query(`CREATE TABLE ${name}_default PARTITION OF ${parent} DEFAULT`);
}
