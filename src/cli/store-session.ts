import { type Config, configFromEnv } from '../config.ts';
import { createServices, dataSteps, type Services } from '../services.ts';
import { openStore, type Store } from '../store/store.ts';

/**
 * Opens the same store the server uses (DATA_DIR or DATABASE_URL), brings its schema up to
 * date, runs one piece of work and closes it, so admin commands work beside a running server.
 */
export async function withServices<T>(
  env: NodeJS.ProcessEnv,
  work: (services: Services, store: Store, config: Config) => Promise<T>,
): Promise<T> {
  const config = configFromEnv(env);
  const store = openStore(config);
  try {
    await store.migrate(dataSteps(config));
    return await work(createServices(config, store), store, config);
  } finally {
    await store.close();
  }
}
