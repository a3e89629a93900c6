import { Module } from '@nestjs/common';
import { ReconcilerProcessor } from './pipeline/reconcile/reconciler.processor';
import { ReconcilerService } from './pipeline/reconcile/reconciler.service';
import { RelayCoreModule } from './relay-core.module';
import { LivenessModule } from '../liveness';
import { BroadcastMarks } from './pipeline/send/broadcast-marks';
import { ReceiptTracker } from './pipeline/track/receipt-tracker.service';
import { SendProcessor } from './pipeline/send/send.processor';
import { Abandonment } from './pipeline/settle/abandonment.service';
import { ChainIo } from './pipeline/node/chain-io.service';
import { DerivedFunding } from './pipeline/send/derived-funding.service';
import { MinedCheck } from './pipeline/track/mined-check';
import { SettledFinality } from './pipeline/settle/settled-finality.service';
import { NonceFiller } from './pipeline/keys/nonce-filler';
import { NonceFate } from './pipeline/keys/nonce-fate';
import { FirstSend } from './pipeline/send/first-send.service';
import { Replacement } from './pipeline/send/replacement.service';
import { Resend } from './pipeline/send/resend.service';
import { Cancellation } from './pipeline/send/cancellation.service';
import { Claim } from './pipeline/send/claim.service';
import { Transmit } from './pipeline/send/transmit.service';
import { Refusals } from './pipeline/send/refusals';
import { Broadcasted } from './pipeline/send/broadcasted';
import { Repricer } from './pipeline/send/repricer.service';
import { SignerLookup } from './pipeline/send/signer-lookup';
import { GasPriceHold } from './pipeline/send/gas-price-hold';
import { NonceGaps } from './pipeline/keys/nonce-gaps.service';
import { Expiry } from './pipeline/reconcile/expiry.service';
import { InFlightPass } from './pipeline/reconcile/in-flight-pass';
import { KeyRetirement } from './pipeline/keys/key-retirement.service';

/** Queue consumers, receipt tracking and the reconciler: loaded by APP_ROLE worker and all. */
@Module({
  imports: [RelayCoreModule, LivenessModule],
  providers: [ChainIo, MinedCheck, NonceFate, NonceFiller, DerivedFunding, Abandonment, GasPriceHold, SignerLookup, Repricer, Refusals, Broadcasted, Transmit, Claim, Resend, Cancellation, FirstSend, Replacement, BroadcastMarks, ReceiptTracker, SendProcessor, NonceGaps, Expiry, InFlightPass, ReconcilerService, ReconcilerProcessor, SettledFinality, KeyRetirement],
  exports: [ReconcilerService, FirstSend, Replacement],
})
export class RelayWorkerModule {}
