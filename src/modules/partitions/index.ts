/** What other modules may use of partitions: the module (worker role) and its maintenance pass. */
export { PartitionsModule } from './partitions.module';
export { PartitionMaintenance } from './partition-maintenance.service';
