import { createHash } from 'node:crypto';
import { entityKind, fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

type Execute = { execute(values?: Record<string, unknown>): Promise<{ rows: unknown[] }> };
/** What a prepared raw statement needs of a drizzle database (both drivers have it; not in drizzle's public types). */
interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    constructor: { [entityKind]?: string };
    client: object;
    prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: boolean): Execute;
  };
}

/** The statements PREPAREd on each PGlite instance (by name: the PREPARE, awaited by concurrent first runs). */
const preparedOnPglite = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Runs a statement under `name`. On PostgreSQL (node-postgres) a named statement is parsed and planned once per
 * connection, then only bound. PGlite (one in-process connection) ignores protocol-level names and would parse and
 * plan every time, which costs more than running the statement; there it is a SQL-level `PREPARE` (once per
 * instance, again after a `DEALLOCATE`) and each run an `EXECUTE` with the values written as literals (literal()
 * below). Inside a PGlite transaction the statement runs unprepared (a failed EXECUTE would abort it).
 */
async function runAs(db: Db, name: string, built: { sql: string; params: unknown[] }, values: Record<string, unknown>): Promise<unknown[]> {
  const { session } = db as unknown as DrizzleInternals;
  const statement = (query: { sql: string; params: unknown[] }, named?: string) => session.prepareQuery(query, undefined, named, false);
  if (session.constructor[entityKind] !== 'PgliteSession') return (await statement(built, name).execute(values)).rows;
  const instance = session.client;
  if (typeof (instance as { execProtocol?: unknown }).execProtocol !== 'function') return (await statement(built).execute(values)).rows;
  const args = fillPlaceholders(built.params, values);
  return (await executeOnPglite(instance, name, built.sql, args, (query) => statement(query).execute())).rows;
}

/** EXECUTEs `name` on a PGlite instance with `args` as literals, PREPAREd first when it is not (or no longer) there. */
async function executeOnPglite<R>(
  instance: object,
  name: string,
  text: string,
  args: unknown[],
  run: (query: { sql: string; params: unknown[] }) => Promise<R>,
): Promise<R> {
  let prepared = preparedOnPglite.get(instance);
  if (!prepared) preparedOnPglite.set(instance, (prepared = new Map()));
  const prepare = () => {
    const done = run({ sql: `prepare ${name} as ${text}`, params: [] });
    prepared.set(name, done);
    done.catch(() => prepared.delete(name));
    return done;
  };
  await (prepared.get(name) ?? prepare());
  const execute = () => run({ sql: `execute ${name}${args.length ? `(${args.map(literal).join(', ')})` : ''}`, params: [] });
  try {
    return await execute();
  } catch (err) {
    // "prepared statement does not exist" (deallocated); drizzle wraps the driver's error in `cause`
    const e = err as { code?: string; cause?: { code?: string } };
    if ((e.code ?? e.cause?.code) !== '26000') throw err;
    await prepare();
    return execute();
  }
}

/**
 * On PGlite, makes drizzle's own named prepared queries (`.prepare(name)`, e.g. the session lookup of every
 * request) real prepared statements as above: drizzle builds and maps them as usual, only the text it sends becomes
 * `EXECUTE name(literals)`. Applied to the instance's database only (its transactions keep drizzle's behaviour).
 */
export function prepareNamedQueriesOnPglite(db: Db, instance: object): void {
  type Prepared = Execute & { queryString: string; params: unknown[] };
  type Session = { prepareQuery(query: { sql: string; params: unknown[] }, fields: unknown, name: string | undefined, ...rest: unknown[]): Prepared };
  const session = (db as unknown as { session: Session }).session;
  const original = session.prepareQuery.bind(session);
  session.prepareQuery = (query, fields, name, ...rest) => {
    const prepared = original(query, fields, name, ...rest);
    if (!name) return prepared;
    const executeAs = prepared.execute;
    prepared.execute = (values = {}) =>
      executeOnPglite(instance, name, query.sql, fillPlaceholders(query.params, values), async (sent) => {
        if (sent.sql.startsWith('prepare ')) return original(sent, undefined, undefined, false).execute();
        // drizzle's own execute (row mapping by its fields) of the EXECUTE text
        return executeAs.call(Object.assign(Object.create(prepared) as Prepared, { queryString: sent.sql, params: [] }), {});
      });
    return prepared;
  };
}

/**
 * A value as a SQL literal for PGlite's EXECUTE (the statement's parameters have the types of their casts or their
 * context, which the literals are coerced to). Strings are quoted with quotes doubled (standard_conforming_strings
 * is on), dates are ISO text, arrays are array literals; anything else is refused rather than guessed.
 */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('a prepared statement value is not a finite number');
    return String(value);
  }
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (value instanceof Date) return literal(value.toISOString());
  if (Array.isArray(value)) {
    const items = value.map((v) => {
      if (typeof v !== 'string') throw new Error('a prepared statement array holds strings only');
      return `"${v.replace(/["\\]/g, '\\$&')}"`;
    });
    return literal(`{${items.join(',')}}`);
  }
  throw new Error(`a prepared statement value of type ${typeof value} cannot be a literal`);
}

/**
 * A raw SQL statement of a hot path, built ONCE and run as a prepared statement (runAs): no query building per
 * request, no parse per run. Values are `sql.placeholder(name)`s, each with a cast in the SQL (`::uuid`, `::int`)
 * that gives its type, filled at each run. Rows come as the driver gives them (objects; json parsed, timestamps as
 * text): hot statements answer json built in SQL, in the wire shape.
 */
export function preparedStatement<T>(name: string, build: () => SQL): (db: Db, values?: Record<string, unknown>) => Promise<T[]> {
  let built: { sql: string; params: unknown[] } | undefined;
  return async (db, values = {}) => {
    built ??= (db as unknown as DrizzleInternals).dialect.sqlToQuery(build());
    return (await runAs(db, name, built, values)) as T[];
  };
}

/**
 * Runs a statement built per request as a prepared statement named by a hash of its text: a connection that ran
 * the same text before neither parses nor (PGlite) prepares it again, so a list polled with the same filters is
 * answered from the statement cache. Values stay parameters, so the texts (and the statements a connection keeps)
 * are one per shape of the query, not per value.
 */
export async function runNamed<T>(db: Db, query: SQL): Promise<T[]> {
  const built = (db as unknown as DrizzleInternals).dialect.sqlToQuery(query);
  const name = `lamella_${createHash('sha1').update(built.sql).digest('hex').slice(0, 24)}`;
  return (await runAs(db, name, built, {})) as T[];
}

/** A timestamptz column as the ISO text `Date.toISOString()` writes (UTC, milliseconds), in SQL. */
export const isoText = (column: SQL): SQL => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
