import { ApiProperty } from '@nestjs/swagger';

export class DeletedPolicyDto {
  @ApiProperty() id: string;
  @ApiProperty() deleted: boolean;
}
