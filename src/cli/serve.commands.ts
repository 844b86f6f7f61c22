import { type Config, configFromEnv } from '../config.ts';
import { dataSteps } from '../services.ts';
import { openStore } from '../store/store.ts';
import type { Command } from './command.ts';

export const serve: Command = {
  name: 'serve',
  usage: 'serve',
  summary:
    'Run the HTTP service (and the Telegram bot when TELEGRAM_BOT_TOKEN is set) until SIGTERM or SIGINT.',
  async run(_args, io) {
    // Loaded on demand: the server pulls in every feature, which the other commands never need.
    const { startServer } = await import('../server.ts');
    const config = configFromEnv(io.env);
    // Listened for before the start: a signal that comes right after the server says it is
    // serving (or while it starts) still stops it gracefully, instead of ending it at once.
    let pending: NodeJS.Signals | undefined;
    let stop = (signal: NodeJS.Signals) => {
      pending = signal;
      io.err(`tyche: ${signal} during start-up: stopping once started (send it again to stop at once)`);
    };
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    const server = await startServer(config).catch((error: unknown) => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      throw explainListenError(error, config);
    });
    await new Promise<void>((resolve) => {
      stop = (signal) => {
        server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
        server.stop().then(resolve, (error) => {
          server.app.log.error({ err: error }, 'shutdown failed');
          resolve();
        });
      };
      if (pending) stop(pending);
    });
    return 0;
  },
};

/** Listen failures name the variables to change instead of a bare system error code. */
function explainListenError(error: unknown, config: Config): unknown {
  const { code, syscall } = error as NodeJS.ErrnoException;
  const where = `HOST=${config.HOST} PORT=${config.PORT}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the address is already in use (another process listens there: pick another PORT)',
    EACCES: 'permission denied (ports below 1024 need privileges: pick a PORT of 1024 or more)',
    EADDRNOTAVAIL: 'this machine has no such address (set HOST to one of its addresses, or 0.0.0.0)',
    ENOTFOUND: 'the host name does not resolve (set HOST to an address of this machine)',
  };
  if ((syscall === 'listen' || syscall === 'getaddrinfo') && code && reasons[code]) {
    return new Error(`cannot listen on ${where}: ${reasons[code]}`, { cause: error });
  }
  return error;
}

export const migrate: Command = {
  name: 'migrate',
  usage: 'migrate',
  summary: 'Apply pending database migrations to DATA_DIR or DATABASE_URL (serve also does this at start).',
  async run(_args, io) {
    const config = configFromEnv(io.env);
    const store = openStore(config);
    try {
      const { applied, warnings } = await store.migrate(dataSteps(config));
      io.out(applied.length > 0 ? `Applied ${applied.join(', ')}` : `Already up to date (${store.location})`);
      // The data is reported, not changed: the schema is up to date either way.
      for (const warning of warnings) io.err(`warning: ${warning}`);
    } finally {
      await store.close();
    }
    return 0;
  },
};
