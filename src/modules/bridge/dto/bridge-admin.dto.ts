import { ApiProperty } from '@nestjs/swagger';

export class BridgeInventoryLineDto {
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty({ example: '0x5fbdb2315678afecb367f032d93f642f64180aa3', description: 'The chain’s bridge spoke (lowercase)' }) spoke: string;
  @ApiProperty({ example: '0x8464135c8f25da09e49bc8782676a84730c318bc', description: 'Token address (lowercase)' }) token: string;
  @ApiProperty({ example: 'USDC' }) symbol: string;
  @ApiProperty({ example: 6 }) decimals: number;
  @ApiProperty({ example: '500000000000', description: 'Token units the spoke can pay out: its balance less the escrowed deposits' }) available: string;
  @ApiProperty({ example: false, description: 'Below BRIDGE_LOW_INVENTORY_UNITS whole tokens (raises the bridge.low_inventory operator alert once per crossing)' }) low: boolean;
}

export class BridgeOrderDto {
  @ApiProperty({ example: '0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658' }) depositId: string;
  @ApiProperty({ example: 'repaid', enum: ['seen', 'confirmed', 'filling', 'filled', 'repaying', 'repaid', 'refunding', 'refunded'] }) state: string;
  @ApiProperty({ example: 31337 }) srcChainId: number;
  @ApiProperty({ example: 84532 }) destChainId: number;
  @ApiProperty({ example: '0x2c1f0e3d4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0' }) srcTxHash: string;
  @ApiProperty({ type: String, nullable: true, example: '0x6b1f0e3d4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff1' }) fillTxHash: string | null;
  @ApiProperty({ example: '0x8464135c8f25da09e49bc8782676a84730c318bc' }) inputToken: string;
  @ApiProperty({ example: '100000000' }) inputAmount: string;
  @ApiProperty({ example: '0x8464135c8f25da09e49bc8782676a84730c318bc' }) outputToken: string;
  @ApiProperty({ example: '99500000', description: 'The least the recipient is paid' }) outputAmount: string;
  @ApiProperty({ type: String, nullable: true, example: '99600000' }) fillAmount: string | null;
  @ApiProperty({ example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }) recipient: string;
  @ApiProperty({ example: '2026-11-28T10:00:00.000Z', format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-28T10:00:03.000Z', format: 'date-time' }) filledAt: string | null;
}

export class BridgeAdminDto {
  @ApiProperty({ example: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', description: 'The filler key the spokes trust (signs fills, repayments and refunds; never a transaction)' }) filler: string;
  @ApiProperty({ type: String, nullable: true, example: '0x90f79bf6eb2c4f870365e785982e1f101e93b906', description: 'BRIDGE_ACCOUNT: the account charged for the bridge’s transactions; null: the filler sends nothing' }) account: string | null;
  @ApiProperty({ type: [BridgeInventoryLineDto] }) inventory: BridgeInventoryLineDto[];
  @ApiProperty({ type: [BridgeOrderDto], description: 'The 50 latest deposits' }) orders: BridgeOrderDto[];
}
