import { systemClock } from '../clock.ts';
import { configFromEnv } from '../config.ts';
import { openStore } from '../store/store.ts';
import { createWitnessRepository } from '../witness/witness.repository.ts';
import { createWitness } from '../witness/witness.service.ts';
import type { Command } from './command.ts';

export const witness: Command = {
  name: 'witness',
  usage: 'witness [--print-key]',
  summary: `Serve as a transparency-log witness (c2sp.org/tlog-witness) for the logs in TYCHE_WITNESS_LOGS
("<origin> <note verifier key>", comma separated): POST /add-checkpoint on HOST:PORT cosigns a checkpoint
only when it is signed by that log's key and consistent with the last one cosigned, which is kept under
DATA_DIR or DATABASE_URL. The name is WITNESS_NAME (default: host and path of PUBLIC_BASE_URL + /witness);
the key is generated and stored on first start. --print-key prints the witness's note verifier key and exits.`,
  options: { 'print-key': { type: 'boolean' } },
  async run(args, io) {
    const config = configFromEnv(io.env);
    const store = openStore(config);
    await store.migrate();
    const service = createWitness({
      name: config.witnessName,
      logs: config.TYCHE_WITNESS_LOGS,
      repository: createWitnessRepository(store.db),
      clock: systemClock,
    });
    if (args.values['print-key']) {
      try {
        io.out(await service.verifierKey());
      } finally {
        await store.close();
      }
      return 0;
    }
    const { default: pino } = await import('pino');
    const logger = pino({ level: config.LOG_LEVEL });
    const { buildWitnessApp } = await import('../witness/witness-app.ts');
    const app = await buildWitnessApp(service, logger);
    const url = await app.listen({ host: config.HOST, port: config.PORT });
    logger.info(
      { url, key: await service.verifierKey(), logs: config.TYCHE_WITNESS_LOGS.map((l) => l.place) },
      'tyche witness is serving',
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    await app.close();
    await store.close();
    return 0;
  },
};
