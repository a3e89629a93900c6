import { ApiProperty } from '@nestjs/swagger';

class NativeCurrencyDto {
  @ApiProperty() name: string;
  @ApiProperty() symbol: string;
  @ApiProperty() decimals: number;
}

class ExplorerDto {
  @ApiProperty() name: string;
  @ApiProperty() url: string;
  @ApiProperty() apiUrl: string;
}

class BlockExplorersDto {
  @ApiProperty({ type: ExplorerDto }) default: ExplorerDto;
}

class CapabilitiesDto {
  @ApiProperty() eip7702: boolean;
  @ApiProperty() flashBlocks: boolean;
  @ApiProperty({ description: 'takes signed exchange actions instead of EVM transactions' }) exchangeAction: boolean;
}

/** The Chain resource of interface.md. */
export class ChainViewDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'may be empty' }) iconUrl: string;
  @ApiProperty() isTestnet: boolean;
  @ApiProperty({ type: NativeCurrencyDto }) nativeCurrency: NativeCurrencyDto;
  @ApiProperty({ type: BlockExplorersDto }) blockExplorers: BlockExplorersDto;
  @ApiProperty({ type: CapabilitiesDto }) capabilities: CapabilitiesDto;
}
