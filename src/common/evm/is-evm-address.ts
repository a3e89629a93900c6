import { ValidateBy, ValidationOptions } from 'class-validator';
import { normalizeAddress } from './address';

/**
 * The one address rule of the API (interface.md: letter case is not significant): 0x and 40 hex
 * digits in any case, so a mixed-case address with a wrong EIP-55 checksum is still accepted.
 * Code past validation takes the checksummed form through checksumAddress.
 */
export function IsEvmAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEvmAddress',
      validator: {
        validate: (value: unknown) => normalizeAddress(value) !== null,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be an address`,
      },
    },
    options,
  );
}
