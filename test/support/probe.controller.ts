import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Caller, CurrentCaller } from '../../src/common/http/authenticated-request';

class ProbeBody {
  @IsString() name: string;
  @IsInt() @Min(1) @Max(10) count: number;
}

class ProbeQuery {
  // Query values arrive as strings; DTOs convert explicitly (no global implicit conversion).
  @Type(() => Number)
  @IsInt() @Min(1) chainId: number;
}

/**
 * Test-only routes behind the real global api-key guard: one under a success-envelope path and
 * one under a code-envelope path (/gasless/*), so auth and validation are exercised on both
 * envelopes before the endpoints of later features exist.
 */
@Controller()
export class ProbeController {
  @Get('api/_probe')
  whoAmI(@CurrentCaller() caller: Caller) {
    return { userId: caller.account.id };
  }

  @Post('api/_probe')
  echo(@Body() body: ProbeBody, @Query() query: ProbeQuery) {
    return { ...body, chainId: query.chainId };
  }

  @Get('gasless/_probe')
  codeWhoAmI(@CurrentCaller() caller: Caller) {
    return { userId: caller.account.id };
  }

  @Post('gasless/_probe')
  codeEcho(@Body() body: ProbeBody, @Query() query: ProbeQuery) {
    return { ...body, chainId: query.chainId };
  }
}
