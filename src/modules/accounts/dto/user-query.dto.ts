import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString } from 'class-validator';

export class UserQueryDto {
  @ApiProperty({ description: 'Wallet address the account was created for', example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' })
  @IsString() @IsNotEmpty({ message: 'address is required' })
  address: string;
}
