/**
 * Connections whose queries run without the client-side time bound of
 * postgres.ts: bulk loads (postgres-copy.ts), whose COPY may take minutes.
 * A module of its own so that both can mark and read it without a cycle.
 */
import type pg from 'pg';

export const unboundedClients = new WeakSet<pg.PoolClient>();
