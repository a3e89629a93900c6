import type { EntityManager } from 'typeorm';

declare const openTransaction: unique symbol;

/**
 * A database transaction another module opened and hands over, so the receiver's writes commit
 * or roll back with it (a feature's record written with the relay row: RelayCommand.within).
 * Opaque on purpose: the receiver's domain code can only pass it on to its own store, and
 * only a store opens it (`managerOf`) to run its statements; no ORM type crosses a surface.
 */
export interface UnitOfWork {
  readonly [openTransaction]: true;
}

/** The side that owns the transaction wraps its manager (no copy: the same object). */
export const unitOfWork = (em: EntityManager): UnitOfWork => em as unknown as UnitOfWork;

/** A store runs its statements in the transaction it was handed. */
export const managerOf = (work: UnitOfWork): EntityManager => work as unknown as EntityManager;
