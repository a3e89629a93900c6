import 'reflect-metadata';
import type { Type } from '@nestjs/common';

/** A Nest injection token: a class, or the string/symbol of an `@Inject(TOKEN)`. */
export type Token = Type<unknown> | string | symbol;

/** An auto-fake: every member read is a jest.fn (created on first read) that is itself an auto-fake, so `metrics.relayTerminal.inc(...)` works unprepared. */
export type Fake<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? jest.Mock<R, A> & Fake<R> : T[K] & Fake<T[K]> };

export interface BuildOptions {
  /** Values for tokens, used as given (a DataSource, AppConfig, a prepared fake). */
  provide?: Array<[Token, unknown]>;
  /** Classes built for real (recursively, with the same options) wherever they are a dependency. */
  real?: Array<Type<unknown>>;
}

export interface Built<T> {
  unit: T;
  /** The instance handed for `token` (a fake unless provided or real). */
  get<D>(token: Type<D>): Fake<D>;
  get(token: string | symbol): Fake<Record<string, unknown>>;
}

// 'calls': jest takes an object with calls.all() for a jasmine spy.
const NOT_FAKED = new Set<PropertyKey>(['then', 'calls', 'asymmetricMatch', 'nodeType', 'toJSON', '$$typeof', 'constructor']);

/** A callable whose missing members are fakes too; `then` stays undefined so it is never mistaken for a promise. */
export function fake<T = Record<string, unknown>>(members: Partial<Record<keyof T, unknown>> = {}): Fake<T> {
  const wrap = (target: object): unknown =>
    new Proxy(target, {
      get(t, key, receiver) {
        if (key in t || typeof key === 'symbol' || NOT_FAKED.has(key)) return Reflect.get(t, key, receiver);
        const child = wrap(jest.fn());
        Reflect.set(t, key, child);
        return child;
      },
    });
  return wrap(Object.assign(Object.create(null) as object, members)) as Fake<T>;
}

/** The tokens Nest would inject, by position: `@Inject(TOKEN)` (self:paramtypes) over the emitted types. */
function dependenciesOf(cls: Type<unknown>): Token[] {
  const types = (Reflect.getMetadata('design:paramtypes', cls) as Token[] | undefined) ?? [];
  const declared = (Reflect.getMetadata('self:paramtypes', cls) as Array<{ index: number; param: Token }> | undefined) ?? [];
  const tokens = [...types];
  for (const { index, param } of declared) tokens[index] = param;
  // A parameter typed by an interface or a union is emitted as Object: one fake per position, not one shared.
  for (let i = 0; i < tokens.length; i++) if (tokens[i] === Object || tokens[i] === undefined) tokens[i] = Symbol.for(`${cls.name}#${i}`);
  if (tokens.length < cls.length) throw new Error(`${cls.name}: no constructor metadata (is it @Injectable()?)`);
  return tokens;
}

/**
 * Builds `cls` as Nest would, from its constructor metadata: each dependency is the provided
 * value, a real instance (`real`), or an auto-fake. Specs then name only what they care about
 * instead of `new Service({} as never, {} as never, …)` by position.
 *
 *   const { unit, get } = build(SettlementService, { provide: [[ChainRegistry, chains]] });
 *   get(LedgerService).settle.mockResolvedValue(balances);
 */
export function build<T>(cls: Type<T>, options: BuildOptions = {}): Built<T> {
  const instances = new Map<Token, unknown>(options.provide ?? []);
  const real = new Set(options.real ?? []);
  const make = <C>(c: Type<C>): C => {
    const args = dependenciesOf(c).map((token) => {
      if (!instances.has(token)) instances.set(token, typeof token === 'function' && real.has(token as Type<unknown>) ? make(token as Type<unknown>) : fake());
      return instances.get(token);
    });
    return new c(...args);
  };
  const unit = make(cls);
  return {
    unit,
    get: ((token: Token) => {
      if (!instances.has(token)) throw new Error(`${String(typeof token === 'function' ? token.name : token)} is not a dependency of ${cls.name}`);
      return instances.get(token);
    }) as Built<T>['get'],
  };
}
