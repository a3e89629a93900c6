import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { PoliciesService } from '../domain/policies.service';
import { PolicyDto, PolicyIdDto, PolicyInputDto, PolicyUsageDto } from '../dto/policy.dto';
import { DeletedPolicyDto } from '../dto/deleted-policy.dto';

/** A team's sponsorship policies (extensions.md); every route sees the caller's own policies only (another account's id is 404). */
@ApiTags('policies')
@Controller('api/policies')
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

  @Post()
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: 'Create a sponsorship policy', auth: 'api-key-or-jwt', envelope: 'success', status: 201, type: PolicyDto, rateLimited: true, errors: ['VALIDATION_001'] })
  create(@CurrentCaller() caller: Caller, @Body() body: PolicyInputDto): Promise<PolicyDto> {
    return this.policies.create(caller.account.id, body);
  }

  @Get()
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: "The account's sponsorship policies, in the order they are evaluated", auth: 'api-key-or-jwt', envelope: 'success', type: [PolicyDto], rateLimited: true, noInput: true })
  list(@CurrentCaller() caller: Caller): Promise<PolicyDto[]> {
    return this.policies.list(caller.account.id);
  }

  @Get(':id')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: 'One sponsorship policy of the account', auth: 'api-key-or-jwt', envelope: 'success', type: PolicyDto, rateLimited: true, errors: ['RESOURCE_001'] })
  get(@CurrentCaller() caller: Caller, @Param() params: PolicyIdDto): Promise<PolicyDto> {
    return this.policies.get(caller.account.id, params.id);
  }

  @Patch(':id')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: 'Change a sponsorship policy (fields left out stay, null clears)', auth: 'api-key-or-jwt', envelope: 'success', type: PolicyDto, rateLimited: true, errors: ['RESOURCE_001', 'VALIDATION_001'] })
  update(@CurrentCaller() caller: Caller, @Param() params: PolicyIdDto, @Body() body: PolicyInputDto): Promise<PolicyDto> {
    return this.policies.update(caller.account.id, params.id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: 'Delete a sponsorship policy (transactions it sponsored keep its id)', auth: 'api-key-or-jwt', envelope: 'success', type: DeletedPolicyDto, rateLimited: true, errors: ['RESOURCE_001'] })
  async remove(@CurrentCaller() caller: Caller, @Param() params: PolicyIdDto): Promise<DeletedPolicyDto> {
    await this.policies.remove(caller.account.id, params.id);
    return { id: params.id, deleted: true };
  }

  @Get(':id/usage')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: "A policy's usage: spent, reserved, count, and each end user's current window", auth: 'api-key-or-jwt', envelope: 'success', type: PolicyUsageDto, rateLimited: true, errors: ['RESOURCE_001'] })
  usage(@CurrentCaller() caller: Caller, @Param() params: PolicyIdDto): Promise<PolicyUsageDto> {
    return this.policies.usage(caller.account.id, params.id);
  }
}
