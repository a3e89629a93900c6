import { Module } from '@nestjs/common';
import { ChainsModule } from '../chains';
import { RateLimitModule } from '../rate-limit';
import { RelayCoreModule, RelayModule } from '../relay';
import { SwapModule } from '../swap';
import { GaslessQuoteService } from './domain/gasless-quote.service';
import { GaslessQuoteStore } from './domain/gasless-quote.store';
import { GaslessStatusService } from './domain/gasless-status.service';
import { GaslessSubmitService } from './domain/gasless-submit.service';
import { PermitNonceService } from './domain/permit-nonce.service';
import { SettlerInfo } from './domain/settler-info.service';
import { GaslessController } from './gasless.controller';
import { GaslessSwapStore } from './store/gasless-swap.store';

/** Gasless same-chain swaps: Permit2-signed input, settlement relayed on the user's behalf. */
@Module({
  imports: [ChainsModule, RateLimitModule, RelayCoreModule, RelayModule, SwapModule],
  controllers: [GaslessController],
  providers: [GaslessSwapStore, GaslessQuoteService, GaslessQuoteStore, GaslessSubmitService, GaslessStatusService, PermitNonceService, SettlerInfo],
  exports: [GaslessStatusService],
})
export class GaslessModule {}
