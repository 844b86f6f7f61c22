import { randomBytes } from 'node:crypto';
import pg from 'pg';

const CANDIDATES = process.env.TEST_DATABASE_URL
  ? [process.env.TEST_DATABASE_URL]
  : ['postgres://postgres@127.0.0.1:5432/test', 'postgres://root@127.0.0.1:5432/test'];

let admin: Promise<string | undefined> | undefined;

async function findServer(): Promise<string | undefined> {
  for (const url of CANDIDATES) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return url;
    } catch {
      await client.end().catch(() => {});
    }
  }
  return undefined;
}

/**
 * Why PostgreSQL tests may be skipped, or undefined when a server answers. In CI the
 * PostgreSQL part is required, so an unreachable server fails instead of skipping.
 */
export async function postgresUnavailable(): Promise<string | undefined> {
  admin ??= findServer();
  if (await admin) return undefined;
  const reason = `no PostgreSQL server reachable at ${CANDIDATES.join(' or ')}`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI requires it`);
  process.stderr.write(`NOTICE: PostgreSQL tests skipped: ${reason}\n`);
  return reason;
}

/** A fresh database for one test file, so parallel runs never see each other's rows. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  admin ??= findServer();
  const adminUrl = await admin;
  if (!adminUrl) throw new Error('PostgreSQL is not reachable');
  const name = `tyche_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
