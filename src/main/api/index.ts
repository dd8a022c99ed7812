export { readAnswerHead, type AnswerHead } from './answer-head';
export {
  createServiceClient,
  parseBaseUrl,
  parseRetryAfter,
  type CallOptions,
  type ClientOptions,
  type Credentials,
  type RetryInfo,
  type RetryOptions,
  type ServiceClient,
} from './client';
export {
  ServiceClientError,
  isAbortError,
  isServiceClientError,
  toBridgeError,
  type NetworkReason,
  type ServiceClientErrorDetails,
  type ServiceErrorKind,
} from './errors';
export { sign } from './sign';
export { USAGE_REFRESH_MS, UsageLedger, type AnsweredRequest } from './usage-ledger';
