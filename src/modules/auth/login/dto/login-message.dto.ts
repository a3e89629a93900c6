import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString } from 'class-validator';

export class LoginMessageRequestDto {
  @ApiProperty({ description: 'Wallet that will sign the message (any letter case)', example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
  @IsString() @IsNotEmpty({ message: 'address is required' })
  address: string;
}

export class LoginMessageDto {
  @ApiProperty({ description: 'EIP-4361 text to sign verbatim with EIP-191 personal_sign' })
  message: string;

  @ApiProperty({ description: 'Pass to POST /api/auth/verify with the signature' })
  messageId: string;

  @ApiProperty({ description: 'Unix seconds; the message is usable once, until then (5 minutes)', example: 1735689900 })
  expiry: number;
}
