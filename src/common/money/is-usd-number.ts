import { ValidateBy, ValidationOptions } from 'class-validator';

/** A finite number with at most micro-USD precision. */
export function isUsdNumber(value: unknown): boolean {
  // Rounding to 6 places and comparing also works in exponent notation (1e-7, 1e21), where
  // class-validator's maxDecimalPlaces splits the printed number on '.' and throws.
  return typeof value === 'number' && Number.isFinite(value) && Number(value.toFixed(6)) === value;
}

/** USD amounts of the admin API: a JSON number with at most 6 decimal places (micro-USD). */
export function IsUsdNumber(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUsdNumber',
      validator: {
        validate: isUsdNumber,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be a USD amount with at most 6 decimal places`,
      },
    },
    options,
  );
}
