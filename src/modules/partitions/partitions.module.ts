import { Module } from '@nestjs/common';
import { PartitionMaintenance } from './partition-maintenance.service';
import { PartitionStore } from './partition.store';

/** Monthly partitions of the tables that grow with traffic: created ahead, and dropped past retention when final. Worker role. */
@Module({
  providers: [PartitionStore, PartitionMaintenance],
  exports: [PartitionMaintenance],
})
export class PartitionsModule {}
