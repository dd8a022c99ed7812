export {
  createLogger,
  nullLogger,
  type LogLevel,
  type LogSink,
  type Logger,
  type LoggerOptions,
} from './logger';
export { REDACTED, redact, redactFieldValue, registerSecret, type RegisterOptions } from './redact';
export {
  createFileSink,
  createMemorySink,
  createStderrSink,
  type FileSink,
  type FileSinkOptions,
  type MemorySink,
} from './sinks';
