/** What the sandbox logs through; `console` fits. Messages never carry card numbers. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Falls back to `warn` when absent. */
  error?(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export function logError(logger: Logger, message: string): void {
  if (logger.error) logger.error(message);
  else logger.warn(message);
}
