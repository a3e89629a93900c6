import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { RouteDto } from '../../swap';

/** Response shapes of the gasless endpoints (interface.md "Gasless quote object", "Gasless swap record"), for the OpenAPI document. */
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

export class TypedDataFieldDto {
  @ApiProperty({ example: 'spender' }) name: string;
  @ApiProperty({ example: 'address' }) type: string;
}

export class Eip712DomainDto {
  @ApiProperty({ example: 'Permit2' }) name: string;
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ example: PERMIT2 }) verifyingContract: string;
}

export class TokenPermissionsDto {
  @ApiProperty({ example: USDC }) token: string;
  @ApiProperty({ example: '1000000' }) amount: string;
}

export class SwapWitnessDto {
  @ApiProperty({ example: WETH }) tokenOut: string;
  @ApiProperty({ example: '330000000000000' }) minAmountOut: string;
  @ApiProperty({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }) receiver: string;
  @ApiProperty({ example: '25000' }) feeAmount: string;
}

/** Permit2 PermitTransferFrom (mode 2) or PermitWitnessTransferFrom (mode 3, with `witness`). */
export class PermitMessageDto {
  @ApiProperty({ type: TokenPermissionsDto }) permitted: TokenPermissionsDto;
  @ApiProperty({ description: 'the GaslessSettler', example: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853' }) spender: string;
  @ApiProperty({ example: '1' }) nonce: string;
  @ApiProperty({ description: 'Unix seconds', example: '1795000000' }) deadline: string;
  @ApiPropertyOptional({ type: SwapWitnessDto, description: 'mode 3 only' }) witness?: SwapWitnessDto;
}

@ApiExtraModels(TypedDataFieldDto)
export class Eip712PayloadDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(TypedDataFieldDto) } },
    description: 'struct types, EIP712Domain included (as eth_signTypedData_v4 expects)',
    example: { TokenPermissions: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint256' }] },
  })
  types: Record<string, TypedDataFieldDto[]>;
  @ApiProperty({ type: Eip712DomainDto }) domain: Eip712DomainDto;
  @ApiProperty({ enum: ['PermitTransferFrom', 'PermitWitnessTransferFrom'] }) primaryType: string;
  @ApiProperty({ type: PermitMessageDto, description: 'integers as decimal strings' }) message: PermitMessageDto;
}

export class GaslessFeeDto {
  @ApiProperty({ description: 'input token units', example: '25000' }) feeAmount: string;
  @ApiProperty({ example: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }) feeRecipient: string;
  @ApiProperty({ example: 0.025 }) feeUsd: number;
}

export class CalldataTemplateDto {
  @ApiProperty({ example: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853' }) to: string;
  @ApiProperty({ example: '0' }) value: string;
  @ApiProperty({ example: '0x' }) innerData: string;
  @ApiProperty({ example: 'permit2-witness' }) meta: string;
}

export class GaslessQuoteDto {
  @ApiProperty({ example: 'gq_7b1e0c' }) quoteId: string;
  @ApiProperty({ type: RouteDto }) quote: RouteDto;
  @ApiProperty({ type: Eip712PayloadDto }) eip712: Eip712PayloadDto;
  @ApiProperty({ type: GaslessFeeDto }) fee: GaslessFeeDto;
  @ApiProperty({ example: '1' }) nonce: string;
  @ApiProperty({ description: 'Unix seconds', example: '1795000000' }) deadline: string;
  @ApiProperty({ type: CalldataTemplateDto }) calldataTemplate: CalldataTemplateDto;
}

export class GaslessSwapDto {
  @ApiProperty({ example: 'gs_41f2' }) swapId: string;
  @ApiProperty({ example: 'c2d1e4f0-0000-4000-8000-000000000001' }) relayTxId: string;
  @ApiProperty({ enum: ['pending', 'submitted', 'executed', 'failed'] }) status: string;
  @ApiProperty({ example: 31337 }) fromChain: number;
  @ApiProperty({ example: 31337 }) toChain: number;
  @ApiProperty({ example: USDC }) fromToken: string;
  @ApiProperty({ example: WETH }) toToken: string;
  @ApiProperty({ example: '1000000' }) amountIn: string;
  @ApiProperty({ example: '330000000000000' }) amountOut: string;
  @ApiProperty({ example: '25000' }) feeAmount: string;
  @ApiProperty({ example: 'sameChainSwap' }) routeKind: string;
  @ApiPropertyOptional({ description: 'once the relayed settlement has landed', example: '0x2c1f0e3d4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0' })
  executionTxHash?: string;
}
