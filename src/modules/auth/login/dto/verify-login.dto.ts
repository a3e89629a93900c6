import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class VerifyLoginRequestDto {
  @ApiProperty({ description: 'From POST /api/auth/message' })
  @IsString() @IsNotEmpty({ message: 'messageId is required' }) @MaxLength(128)
  messageId: string;

  @ApiProperty({ description: '0x hex personal_sign signature of the message (65 bytes, or 64 in EIP-2098 form)' })
  @IsString() @IsNotEmpty({ message: 'signature is required' }) @MaxLength(200)
  signature: string;
}

export class LoginTokenDto {
  @ApiProperty({ description: 'JWT (HS256) for `Authorization: Bearer`; claims sub (userId), address, aud (JWT_AUDIENCE, default gas-relay), iat, exp' })
  token: string;

  @ApiProperty({ description: 'Unix seconds; the token expires then (1 hour after issue by default)', example: 1735693200 })
  expiresAt: number;

  @ApiProperty()
  userId: string;

  @ApiProperty({ description: 'Lowercase wallet address of the account', example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' })
  address: string;
}
