/** The slice of pino the bot logs through; tests pass a recorder. */
export interface BotLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLogger: BotLogger = { debug() {}, info() {}, warn() {}, error() {} };
