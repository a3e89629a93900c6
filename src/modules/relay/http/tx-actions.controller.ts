import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { SPEED_UP_EXAMPLE } from '../../../common/swagger/examples';
import { RateLimited } from '../../rate-limit';
import { TxActionsService } from '../actions/tx-actions.service';
import { DEFAULT_BUMP_PERCENT, SpeedUpDto } from './dto/speed-up.dto';
import { TxRecordDto } from './dto/tx-record.dto';
import { toTxRecord, TxRecord } from './tx-view';

const ID_PARAM = { name: 'id', description: 'the transaction id (txId of the submission)' };

@ApiTags('relay')
@Controller('api/tx')
export class TxActionsController {
  constructor(private readonly actions: TxActionsService) {}

  @Post(':id/cancel')
  @HttpCode(200)
  @RateLimited()
  @ApiParam(ID_PARAM)
  @ApiContract({
    summary: 'Cancel a PENDING transaction of the calling account',
    description:
      'Not yet sent: FAILED at once (failureReason cancelled), reservation released. Sent: a 0-value self-transfer at the same nonce with bumped fees is broadcast ' +
      '(the answer comes once it is, or after 5 s); whichever is mined decides: EXECUTED (the original won) or FAILED cancelled, the cancellation\'s gas charged.',
    auth: 'api-key',
    envelope: 'success',
    type: TxRecordDto,
    rateLimited: true,
    noInput: true,
    errors: ['TRANSACTION_003', 'TRANSACTION_009'],
  })
  async cancel(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TxRecord> {
    return toTxRecord(await this.actions.cancel(caller, id));
  }

  @Post(':id/speed-up')
  @HttpCode(200)
  @RateLimited()
  @ApiParam(ID_PARAM)
  @ApiContract({
    summary: 'Replace a broadcast transaction with higher fees',
    description:
      'Body `{bumpPercent?}` (default 20, 10-500) or `{maxFeePerGas, maxPriorityFeePerGas}` (each at least 10% above the last broadcast). The worst case at the new fees ' +
      'is reserved first, like a submission: within the transaction\'s maxUSD and the account\'s per-transaction limit (TRANSACTION_001), its balance (TRANSACTION_002) and ' +
      'daily limit (TRANSACTION_006); an enabled approval webhook is asked (`kind: "speed_up"`, TRANSACTION_008). Refused, the transaction keeps its fees. Only a sent ' +
      'transaction can be sped up: an accepted one is signed with the market fees when it is sent (TRANSACTION_009).',
    auth: 'api-key',
    envelope: 'success',
    type: TxRecordDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'TRANSACTION_001', 'TRANSACTION_002', 'TRANSACTION_003', 'TRANSACTION_005', 'TRANSACTION_006', 'TRANSACTION_007', 'TRANSACTION_008', 'TRANSACTION_009', 'CHAIN_001'],
    requestExample: SPEED_UP_EXAMPLE,
  })
  async speedUp(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: SpeedUpDto): Promise<TxRecord> {
    return toTxRecord(await this.actions.speedUp(caller, id, body, DEFAULT_BUMP_PERCENT));
  }
}
