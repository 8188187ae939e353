// The log lines of the build and start scripts: pino, in the format of the server's own logger
// (src/server/logger.ts: the level by name, the time in ISO 8601), so `npm start` writes one kind of line
// from its first to its last. `module` says which script wrote it.
import { pino } from 'pino';

/** A logger for one script ('start', 'build'). */
export function scriptLogger(module) {
  return pino({
    level: 'info',
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  }).child({ module });
}
