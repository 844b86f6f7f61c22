import { configFromEnv } from '../config.ts';
import { dataSteps } from '../services.ts';
import { systemClock } from '../shared/clock.ts';
import { openStore } from '../store/store.ts';
import { ensureWitnessKey } from '../witness/witness-key.ts';
import type { Command } from './command.ts';

export const witness: Command = {
  name: 'witness',
  usage: 'witness [--print-key]',
  summary: `Serve as a transparency-log witness (c2sp.org/tlog-witness) for the logs in TYCHE_WITNESS_LOGS
("<origin> <note verifier key>", comma separated): POST /add-checkpoint on HOST:PORT cosigns a checkpoint
only when it is signed by that log's key and consistent with the last one cosigned, which is kept under
DATA_DIR or DATABASE_URL. The name is WITNESS_NAME (default: host and path of PUBLIC_BASE_URL + /witness);
the key comes from WITNESS_KEY_FILE, else it is generated and stored on first start (tyche witness-key
generate and export write key files). --print-key prints the witness's note verifier key and exits.`,
  options: { 'print-key': { type: 'boolean' } },
  async run(args, io) {
    const config = configFromEnv(io.env);
    const store = openStore(config);
    let closed = false;
    const close = async () => {
      if (!closed) await store.close();
      closed = true;
    };
    try {
      await store.migrate(dataSteps(config));
      const key = await ensureWitnessKey(
        store.db,
        config.witnessName,
        systemClock.now().getTime(),
        config.witnessKeyFile,
      );
      if (args.values['print-key']) {
        io.out(key.verifierKey);
        return 0;
      }
      // Loaded on demand: --print-key needs neither the HTTP server nor the logger.
      const [{ default: pino }, { buildWitnessApp }, { createWitness }, { createWitnessRepository }] =
        await Promise.all([
          import('pino'),
          import('../witness/witness-app.ts'),
          import('../witness/witness.service.ts'),
          import('../witness/witness.repository.ts'),
        ]);
      const service = createWitness({
        name: config.witnessName,
        key,
        logs: config.TYCHE_WITNESS_LOGS,
        repository: createWitnessRepository(store.db),
        clock: systemClock,
      });
      const logger = pino({ level: config.LOG_LEVEL });
      const app = await buildWitnessApp(service, logger);
      const url = await app.listen({ host: config.HOST, port: config.PORT });
      const logs = config.TYCHE_WITNESS_LOGS.map((l) => l.place);
      if (logs.length === 0) logger.warn('TYCHE_WITNESS_LOGS is empty: every checkpoint will be refused');
      logger.info({ url, key: key.verifierKey, logs, store: store.location }, 'tyche witness is serving');
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info({ signal }, 'shutting down');
          resolve();
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await app.close();
      return 0;
    } finally {
      await close();
    }
  },
};
