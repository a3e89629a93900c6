import { getMetadataStorage, IsInt, IsString, Min, validate } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Parent {
  @IsString() name!: string;
}

const lookup = (target: new () => object) => getMetadataStorage().getTargetValidationMetadatas(target, '', false, false);
const messages = async (o: object) => (await validate(o, { whitelist: true, forbidUnknownValues: true })).map((e) => e.property).sort();

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it("answers a class's rules once: the same arrays on every validation, grouped once", () => {
    const first = lookup(Parent);
    expect(first.map((m) => m.propertyName)).toEqual(['name']);
    expect(lookup(Parent)).toBe(first);
    const storage = getMetadataStorage();
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    // Other options are another answer.
    expect(getMetadataStorage().getTargetValidationMetadatas(Parent, '', false, false, ['g'])).not.toBe(first);
  });

  it('a class declared after a lookup (its rules added then) is validated with its own and inherited rules', async () => {
    const parent = Object.assign(new Parent(), { name: 7 });
    expect(await messages(parent)).toEqual(['name']);
    class Child extends Parent {
      @IsInt() @Min(1) count!: number;
    }
    expect(lookup(Child).map((m) => m.propertyName).sort()).toEqual(['count', 'count', 'name']);
    expect(await messages(Object.assign(new Child(), { name: 7, count: 0 }))).toEqual(['count', 'name']);
    expect(await messages(Object.assign(new Child(), { name: 'a', count: 2 }))).toEqual([]);
    // Whitelisting still strips what no rule names.
    const extra = Object.assign(new Child(), { name: 'a', count: 2, other: 1 });
    await validate(extra, { whitelist: true });
    expect(extra).not.toHaveProperty('other');
  });

  it('is installed once however often it is called', () => {
    const before = getMetadataStorage().getTargetValidationMetadatas;
    cacheValidationMetadata();
    expect(getMetadataStorage().getTargetValidationMetadatas).toBe(before);
  });
});
