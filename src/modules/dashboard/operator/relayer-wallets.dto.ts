import { ApiProperty } from '@nestjs/swagger';

export class RelayerWalletDto {
  @ApiProperty({ example: 'us-east' }) region: string;
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ example: 'Devnet' }) chainName: string;
  @ApiProperty({ description: 'Checksummed' }) address: string;
  @ApiProperty({ enum: ['local', 'pkcs11'], description: 'Where the key lives: process memory (RELAYER_MNEMONIC) or a PKCS#11 token' }) signer: 'local' | 'pkcs11';
  @ApiProperty({ enum: ['active', 'draining', 'retired'], description: 'active: takes new work; draining: retire asked, in-flight work finishing and balance going to the treasury; retired: done' })
  state: 'active' | 'draining' | 'retired';
  @ApiProperty({ nullable: true, type: String, description: 'Native balance in wei (decimal string); null when the node did not answer' }) balanceWei: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The same in the native unit, e.g. "9999.98"' }) balance: string | null;
  @ApiProperty({ example: 'ETH' }) symbol: string;
  @ApiProperty({ nullable: true, type: String, description: 'Balance below which the key needs funding, in wei; null while none is configured' }) floorWei: string | null;
  @ApiProperty({ nullable: true, type: String, description: "Why the balance is missing (the node's error)" }) error: string | null;
}

export class RelayerKeyStateDto {
  @ApiProperty({ example: 'us-east' }) region: string;
  @ApiProperty({ description: 'Checksummed' }) address: string;
  @ApiProperty({ enum: ['local', 'pkcs11'] }) signer: 'local' | 'pkcs11';
  @ApiProperty({ enum: ['active', 'draining', 'retired'] }) state: 'active' | 'draining' | 'retired';
}
