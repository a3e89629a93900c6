import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class TxQueryService {
  constructor(@InjectRepository(RelayTransactionEntity) private readonly txs: Repository<RelayTransactionEntity>) {}

  /** TRANSACTION_003 for unknown ids, including ones that are not even ids. */
  async get(id: string): Promise<RelayTransactionEntity> {
    const tx = UUID.test(id) ? await this.txs.findOneBy({ id }) : null;
    if (!tx) throw new AppError('TRANSACTION_003', `transaction ${id} not found`);
    return tx;
  }
}
